/**
 * Money is area. The database keeps whole square metres (integers) so that sums of charges are
 * exact; km² (what the API speaks) are converted at the boundary.
 */

export const M2_PER_KM2 = 1_000_000;

/** The smallest charge for a request: 0.01 km² (docs/design.md "Cost"). */
export const MIN_COST_M2 = 10_000;

/** km² → whole m² (nearest). Throws on non-finite input, which is always a programming error. */
export function km2ToM2(km2: number): number {
  if (!Number.isFinite(km2)) throw new RangeError(`Not a finite area: ${km2}`);
  return Math.round(km2 * M2_PER_KM2);
}

export function m2ToKm2(m2: number): number {
  return m2 / M2_PER_KM2;
}

/** What a request over `areaKm2` costs, in m²: max(area, 0.01 km²). */
export function costM2ForArea(areaKm2: number): number {
  if (!Number.isFinite(areaKm2) || areaKm2 < 0) throw new RangeError(`Not a valid area: ${areaKm2}`);
  return Math.max(MIN_COST_M2, km2ToM2(areaKm2));
}
