import type { Ring } from '../types.ts';
import { CLIPPER_SCALE } from './clipper-paths.ts';

/**
 * True when two sides of the rings cross (each passes strictly through the other) or overlap
 * along a stretch; touching at a shared vertex, as Clipper writes touching rings, is fine. A sweep
 * over the sides sorted by their left end. With `spots`, every such pair's box (minX, minY, maxX,
 * maxY) is appended to it instead of stopping at the first.
 */
export function hasCrossingSides(rings: readonly Ring[], spots?: number[]): boolean {
  let total = 0;
  for (const r of rings) total += r.length / 2;
  if (total <= 3) return false;
  const x1 = new Float64Array(total),
    y1 = new Float64Array(total),
    x2 = new Float64Array(total),
    y2 = new Float64Array(total);
  let k = 0;
  for (const r of rings) {
    const n = r.length / 2;
    for (let i = 0; i < n; i++, k++) {
      const j = i + 1 < n ? i + 1 : 0;
      x1[k] = r[2 * i];
      y1[k] = r[2 * i + 1];
      x2[k] = r[2 * j];
      y2[k] = r[2 * j + 1];
    }
  }
  const order = sidesByLeftEnd(x1, x2, total);
  let found = false;
  for (let a = 0; a < total; a++) {
    const s = order[a];
    const maxX = Math.max(x1[s], x2[s]),
      minY = Math.min(y1[s], y2[s]),
      maxY = Math.max(y1[s], y2[s]);
    for (let b = a + 1; b < total; b++) {
      const t = order[b];
      if (Math.min(x1[t], x2[t]) > maxX) break;
      if (Math.max(y1[t], y2[t]) < minY || Math.min(y1[t], y2[t]) > maxY) continue;
      if (!sidesCross(x1[s], y1[s], x2[s], y2[s], x1[t], y1[t], x2[t], y2[t])) continue;
      if (!spots) return true;
      found = true;
      spots.push(
        Math.min(x1[s], x2[s], x1[t], x2[t]),
        Math.min(y1[s], y2[s], y1[t], y2[t]),
        Math.max(x1[s], x2[s], x1[t], x2[t]),
        Math.max(y1[s], y2[s], y1[t], y2[t]),
      );
    }
  }
  return found;
}

/**
 * Side numbers sorted by their left end, equal ends in side order. Coordinates on the millimetre
 * grid (as pieces are) are sorted as one number each, grid x and side number packed, by the typed
 * array's own numeric sort — the comparator sort was half this module's time; the same order.
 */
function sidesByLeftEnd(x1: Float64Array, x2: Float64Array, total: number): Uint32Array {
  const keys = new Float64Array(total);
  for (let i = 0; i < total; i++) keys[i] = Math.min(x1[i], x2[i]);
  const order = new Uint32Array(total);
  if (total < PACK_SIDES) {
    const packed = new Float64Array(total);
    let onGrid = true;
    for (let i = 0; i < total && onGrid; i++) {
      const g = Math.round(keys[i] * CLIPPER_SCALE);
      onGrid = Math.abs(g - keys[i] * CLIPPER_SCALE) < 1e-6 && Math.abs(g) < PACK_GRID;
      packed[i] = (g + PACK_GRID) * PACK_SIDES + i;
    }
    if (onGrid) {
      packed.sort();
      for (let i = 0; i < total; i++) order[i] = packed[i] % PACK_SIDES;
      return order;
    }
  }
  for (let i = 0; i < total; i++) order[i] = i;
  return order.sort(byKey(keys));
}

/** Packing bounds: side numbers below 2^22, grid x within ±2^26 (67 km), together under 2^53. */
const PACK_SIDES = 2 ** 22;
const PACK_GRID = 2 ** 26;

function byKey(keys: Float64Array): (a: number, b: number) => number {
  return (a, b) => keys[a] - keys[b];
}

function sidesCross(ax: number, ay: number, bx: number, by: number, cx: number, cy: number, dx: number, dy: number): boolean {
  const d1 = Math.sign((dx - cx) * (ay - cy) - (dy - cy) * (ax - cx)),
    d2 = Math.sign((dx - cx) * (by - cy) - (dy - cy) * (bx - cx));
  const d3 = Math.sign((bx - ax) * (cy - ay) - (by - ay) * (cx - ax)),
    d4 = Math.sign((bx - ax) * (dy - ay) - (by - ay) * (dx - ax));
  if (d1 * d2 < 0 && d3 * d4 < 0) return true;
  // a vertex strictly inside the other side (a T), or collinear sides sharing a stretch
  if (d1 === 0 && strictlyBetween(cx, cy, dx, dy, ax, ay)) return true;
  if (d2 === 0 && strictlyBetween(cx, cy, dx, dy, bx, by)) return true;
  if (d3 === 0 && strictlyBetween(ax, ay, bx, by, cx, cy)) return true;
  if (d4 === 0 && strictlyBetween(ax, ay, bx, by, dx, dy)) return true;
  return false;
}

/** r strictly between p and q, given the three are collinear. */
function strictlyBetween(px: number, py: number, qx: number, qy: number, rx: number, ry: number): boolean {
  return (rx - px) * (qx - rx) + (ry - py) * (qy - ry) > 0;
}
