import type { RoofShape } from '../roofs/types.ts';

/**
 * Roof heights when the data gives none (no roof:height, roof:levels or roof:angle): each shape at
 * a typical pitch over the footprint's half-width, kept within [0.5 m, two storeys] for pitched
 * roofs and three storeys for curved ones so that a wide mall does not grow a 30 m roof. Without
 * a half-width: one storey.
 */

/** Typical pitch in degrees from eave to top, over the half-width (skillion: over the whole width). */
const PITCH: Partial<Record<RoofShape, number>> = {
  skillion: 15,
  gabled: 30,
  saltbox: 30,
  hipped: 30,
  quadrupleSaltbox: 30,
  pyramidal: 30,
  gambrel: 45,
  mansard: 45,
};

/** Curved roofs: height as a multiple of the half-width (a half circle is 1). */
const CURVED: Partial<Record<RoofShape, number>> = { dome: 1, round: 1, onion: 2 };

export function defaultRoofHeight(shape: RoofShape, halfWidth: number | undefined, levelHeight: number): number {
  if (shape === 'flat') return 0;
  if (halfWidth === undefined || !(halfWidth > 0)) return levelHeight;
  const curved = CURVED[shape];
  if (curved !== undefined) return clamp(curved * halfWidth, 0.5, 3 * levelHeight);
  const pitch = PITCH[shape] ?? 30;
  const run = shape === 'skillion' ? 2 * halfWidth : halfWidth;
  return clamp(run * Math.tan((pitch * Math.PI) / 180), 0.5, 2 * levelHeight);
}

/** Height of a roof of the given pitch: over the half-width, or the whole width for a skillion. */
export function roofHeightFromAngle(shape: RoofShape, degrees: number, halfWidth: number): number {
  const run = shape === 'skillion' ? 2 * halfWidth : halfWidth;
  return run * Math.tan((degrees * Math.PI) / 180);
}

function clamp(v: number, lo: number, hi: number): number {
  return Math.min(Math.max(v, lo), Math.max(lo, hi));
}
