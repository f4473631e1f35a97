import type { Ring } from '../types.ts';
import { CLIPPER_SCALE } from './clipper-paths.ts';

/**
 * True when a ring of the footprint touches itself at a vertex and the loop it closes there winds
 * the other way from the ring (a counter-clockwise outer ring with a clockwise loop, a clockwise
 * hole with a counter-clockwise one). Clipper writes such a loop when a cut rounds a notch thinner
 * than the grid onto a side: the notch's two sides come out on the same side of the polygon's
 * side, a lobe a millimetre wide outside the polygon, wound backwards. No side crosses another (the
 * loop only touches the ring at the vertex), so hasCrossingSides does not see it; read with the
 * NonZero fill it is a piece of ground outside the polygon, and a triangulation of the ring can go
 * wrong over the whole polygon (a fallback that fills the wrong side). Touching loops wound like
 * their ring are Clipper's ordinary way of writing a pinched polygon and are fine.
 *
 * The first ring is the outer (counter-clockwise), the rest holes (clockwise), on the millimetre
 * grid of clipper-paths.ts (vertices are compared there).
 */
export function hasReversedLoop(rings: readonly Ring[]): boolean {
  for (let r = 0; r < rings.length; r++) if (reversedLoopIn(rings[r], r === 0 ? 1 : -1)) return true;
  return false;
}

/** Whether `ring` closes a loop at a repeated vertex whose area has the opposite sign of `sign`. */
function reversedLoopIn(ring: Ring, sign: number): boolean {
  const n = ring.length / 2;
  if (n < 6) return false; // a loop and the rest need three vertices each
  // the walk so far, and where each vertex on it is: a vertex met again closes the loop since then
  const stack: number[] = [];
  const at = new Map<number, number>();
  for (let i = 0; i < n; i++) {
    const key = gridKey(ring, i);
    const start = at.get(key);
    if (start === undefined) {
      at.set(key, stack.length);
      stack.push(i);
      continue;
    }
    // the loop runs from stack[start] through the vertices after it back to vertex i (the same point)
    let a2 = 0;
    for (let k = start; k < stack.length; k++) {
      const p = stack[k],
        q = k + 1 < stack.length ? stack[k + 1] : i;
      a2 += ring[2 * p] * ring[2 * q + 1] - ring[2 * q] * ring[2 * p + 1];
    }
    if (a2 * sign < 0) return true;
    for (let k = start + 1; k < stack.length; k++) at.delete(gridKey(ring, stack[k]));
    stack.length = start + 1;
  }
  return false;
}

/** One number per grid point within 33 km of the frame's origin (x and y in grid units, |x| < 2^25). */
function gridKey(ring: Ring, i: number): number {
  return Math.round(ring[2 * i] * CLIPPER_SCALE) + Math.round(ring[2 * i + 1] * CLIPPER_SCALE) * 67108864;
}
