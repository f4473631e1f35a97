/**
 * A power line's cable between two supports: a catenary hanging below the straight chord from
 * one attachment point to the other. Sag (the catenary's depth below the chord at mid-span) is
 * `SAG_SHARE` of the horizontal span — 3 %, within the 2–4 % overhead lines are strung to at
 * mild temperatures — so a 300 m transmission span sags 9 m and a 40 m distribution span 1.2 m.
 * Supports at different heights keep the sag measured from the chord (the engineers' convention),
 * which for such small sags is the exact catenary within centimetres.
 */

/** Sag at mid-span over the horizontal span length. */
export const SAG_SHARE = 0.03;

/** Segments a cable is drawn with (points = segments + 1). */
export const CABLE_SEGMENTS = 12;

/**
 * The cable's points (xyz, z up) from `from` to `to`, `segments + 1` of them, ends included.
 * The curve is a true catenary `a·cosh(s/a)` over the horizontal span, its depth below the chord
 * `sagShare × span` at the middle.
 */
export function cablePoints(from: readonly number[], to: readonly number[], sagShare = SAG_SHARE, segments = CABLE_SEGMENTS): Float64Array {
  const [x0, y0, z0] = from,
    [x1, y1, z1] = to;
  const span = Math.hypot(x1 - x0, y1 - y0);
  const sag = sagShare * span;
  const a = sag > 0 ? catenaryParameter(span, sag) : Infinity;
  const out = new Float64Array((segments + 1) * 3);
  for (let k = 0; k <= segments; k++) {
    const u = k / segments;
    // depth below the chord: the level catenary's, zero at both supports
    const s = (u - 0.5) * span;
    const depth = Number.isFinite(a) ? a * (Math.cosh(span / (2 * a)) - Math.cosh(s / a)) : 0;
    out[k * 3] = x0 + (x1 - x0) * u;
    out[k * 3 + 1] = y0 + (y1 - y0) * u;
    out[k * 3 + 2] = z0 + (z1 - z0) * u - depth;
  }
  return out;
}

/** The catenary parameter `a` whose curve over `span` dips `sag` at its middle: a·(cosh(span/2a) − 1) = sag. */
export function catenaryParameter(span: number, sag: number): number {
  // the dip falls as `a` grows: bisect on log(a) between a very deep and a very shallow curve
  let lo = Math.log(span * 1e-3),
    hi = Math.log(span * 1e6);
  const dip = (a: number) => a * (Math.cosh(span / (2 * a)) - 1);
  for (let i = 0; i < 80; i++) {
    const mid = (lo + hi) / 2;
    if (dip(Math.exp(mid)) > sag) lo = mid;
    else hi = mid;
  }
  return Math.exp((lo + hi) / 2);
}
