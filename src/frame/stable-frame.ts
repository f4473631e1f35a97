import { createLocalFrame, type LocalFrame } from './local-frame.ts';

/**
 * Frames that do not depend on the request. A building is built in the transverse Mercator frame
 * of the fixed cell of the globe its anchor point falls in (cells of CELL_DEGREES), so its
 * footprint has the same coordinates — and every threshold in footprint repair, triangulation and
 * roof construction decides alike — whatever polygon or tiling asked for it. The finished mesh is
 * then moved into the request frame by an affine map fitted at the building (`affineBetween`).
 *
 * Why affine is exact enough: both frames are transverse Mercators of one ellipsoid, so the map
 * between them is conformal and its linearisation at a point is off by about
 * (distance between the frames' centres) × (distance from the point)² / R²: 1e-5 m for a 200 m
 * building 10 km from the request origin, 3e-4 m for a 1 km one — far below the millimetre output.
 */

export const CELL_DEGREES = 0.05;

const cells = new Map<string, LocalFrame>();

/** The frame of the fixed cell holding (lon, lat); cached per thread. */
export function stableFrameAt(lon: number, lat: number): LocalFrame {
  const i = Math.floor(lon / CELL_DEGREES),
    j = Math.floor(lat / CELL_DEGREES);
  const key = `${i},${j}`;
  let frame = cells.get(key);
  if (!frame) {
    if (cells.size > 256) cells.clear();
    frame = createLocalFrame((j + 0.5) * CELL_DEGREES, (i + 0.5) * CELL_DEGREES);
    cells.set(key, frame);
  }
  return frame;
}

/** x' = a·x + b·y + e, y' = c·x + d·y + f. */
export interface Affine2 {
  a: number;
  b: number;
  c: number;
  d: number;
  e: number;
  f: number;
}

/** Offset of the difference points, degrees (~20 m): long enough to average out float noise, short enough to stay local. */
const STEP_DEGREES = 2e-4;

/**
 * The affine map from `from` to `to` that is exact at (lon, lat) and follows the projections'
 * derivatives there: both frames project the point and a step east and north of it (six forward
 * projections, no inverse), and the map is the one that takes the first triangle onto the second.
 * One-sided steps are enough: the map's own curvature over 20 m is below 1e-8 m.
 */
export function affineBetween(from: LocalFrame, to: LocalFrame, lon: number, lat: number): Affine2 {
  const [p0x, p0y] = from.toLocal(lon, lat),
    [q0x, q0y] = to.toLocal(lon, lat);
  const [p1x, p1y] = from.toLocal(lon + STEP_DEGREES, lat),
    [q1x, q1y] = to.toLocal(lon + STEP_DEGREES, lat);
  const [p2x, p2y] = from.toLocal(lon, lat + STEP_DEGREES),
    [q2x, q2y] = to.toLocal(lon, lat + STEP_DEGREES);
  // [q1 - q0, q2 - q0] = M · [p1 - p0, p2 - p0]  →  M = Q · P⁻¹
  const ux = p1x - p0x,
    uy = p1y - p0y,
    vx = p2x - p0x,
    vy = p2y - p0y;
  const det = ux * vy - uy * vx;
  const sx = q1x - q0x,
    sy = q1y - q0y,
    tx = q2x - q0x,
    ty = q2y - q0y;
  const a = (sx * vy - tx * uy) / det,
    b = (tx * ux - sx * vx) / det;
  const c = (sy * vy - ty * uy) / det,
    d = (ty * ux - sy * vx) / det;
  return { a, b, c, d, e: q0x - a * p0x - b * p0y, f: q0y - c * p0x - d * p0y };
}

/** Applies the map to a flat [x, y, …] ring into a new ring. */
export function mapRing(m: Affine2, ring: readonly number[]): number[] {
  const out = new Array<number>(ring.length);
  for (let k = 0; k < ring.length; k += 2) {
    const x = ring[k],
      y = ring[k + 1];
    out[k] = m.a * x + m.b * y + m.e;
    out[k + 1] = m.c * x + m.d * y + m.f;
  }
  return out;
}

/** Applies the map in place to the x, y of packed [x, y, z, …] positions. */
export function mapPositionsInPlace(m: Affine2, positions: Float64Array): void {
  for (let k = 0; k < positions.length; k += 3) {
    const x = positions[k],
      y = positions[k + 1];
    positions[k] = m.a * x + m.b * y + m.e;
    positions[k + 1] = m.c * x + m.d * y + m.f;
  }
}
