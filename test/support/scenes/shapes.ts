/** Small shapes and measures shared by the generated scenes (local metres, rings as flat [x, y, …]). */
import fc from 'fast-check';
import type { Ring } from '../../../src/geometry/types.ts';

/** A finite double in [min, max]. */
export const num = (min: number, max: number) => fc.double({ min, max, noNaN: true, noDefaultInfinity: true });

/** The counter-clockwise rectangle from (x0, y0) to (x1, y1). */
export function rect(x0: number, y0: number, x1: number, y1: number): Ring {
  return [x0, y0, x1, y0, x1, y1, x0, y1];
}

/** The distance from (x, y) to the segment [ax, ay, bx, by]. */
export function distanceToSegment(x: number, y: number, [ax, ay, bx, by]: readonly number[]): number {
  const dx = bx - ax,
    dy = by - ay,
    l2 = dx * dx + dy * dy;
  const t = l2 > 0 ? Math.max(0, Math.min(1, ((x - ax) * dx + (y - ay) * dy) / l2)) : 0;
  return Math.hypot(x - ax - t * dx, y - ay - t * dy);
}
