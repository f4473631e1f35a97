import Flatbush from 'flatbush';
import { segmentDistance } from '../trees/point-index.ts';
import { normaliseAngle } from './tags/direction.ts';

/** How far a bench or bus stop looks for the road it faces, metres. */
export const FACING_SEARCH_METRES = 30;

/**
 * Nearest-line lookups for orienting street furniture: a bench or bus stop faces the nearest road
 * (its front, +x at rotation 0, turned towards the closest point of the nearest segment).
 */
export class NearestLines {
  private readonly index: Flatbush | null;
  private readonly segs: number[] = [];

  constructor(lines: readonly (readonly number[])[]) {
    for (const l of lines) for (let k = 0; k + 3 < l.length; k += 2) this.segs.push(l[k], l[k + 1], l[k + 2], l[k + 3]);
    const n = this.segs.length / 4;
    if (n === 0) {
      this.index = null;
      return;
    }
    const index = new Flatbush(n);
    for (let s = 0; s < this.segs.length; s += 4) {
      const [ax, ay, bx, by] = this.segs.slice(s, s + 4);
      index.add(Math.min(ax, bx), Math.min(ay, by), Math.max(ax, bx), Math.max(ay, by));
    }
    index.finish();
    this.index = index;
  }

  /** Rotation that faces the nearest line within `radius`, or null when none is that close (or the point is on it). */
  facing(x: number, y: number, radius = FACING_SEARCH_METRES): number | null {
    if (!this.index) return null;
    let best = Infinity,
      px = 0,
      py = 0;
    for (const h of this.index.neighbors(x, y, 8, radius)) {
      const s = h * 4;
      const [ax, ay, bx, by] = [this.segs[s], this.segs[s + 1], this.segs[s + 2], this.segs[s + 3]];
      const d = segmentDistance(x, y, ax, ay, bx, by);
      if (d < best) {
        const dx = bx - ax,
          dy = by - ay,
          len2 = dx * dx + dy * dy;
        const t = len2 > 0 ? Math.max(0, Math.min(1, ((x - ax) * dx + (y - ay) * dy) / len2)) : 0;
        best = d;
        px = ax + t * dx;
        py = ay + t * dy;
      }
    }
    if (!Number.isFinite(best) || best > radius || best < 1e-6) return null;
    return normaliseAngle(Math.atan2(py - y, px - x));
  }
}
