import Flatbush from 'flatbush';
import { FootprintLocator } from '../ring-locator.ts';
import type { Footprint } from '../types.ts';

/** A polyline corridor: points closer than `halfWidth` to the line are in it (a road with its sidewalks). */
export interface Corridor {
  points: readonly number[];
  halfWidth: number;
}

/** What a plant may not stand in: footprints (buildings, hard ground, water), corridors (roads), discs (other trees). */
export interface Obstacles {
  footprints: readonly Footprint[];
  corridors: readonly Corridor[];
  /** Flat [x0, y0, r0, x1, y1, r1, …]: discs of radius r. */
  discs: readonly number[];
}

/**
 * Answers "is this point blocked?" against many obstacles with one Flatbush index over their
 * boxes (footprints whole, corridors per segment, discs), then an exact test on the few hits.
 */
export class PointBlocker {
  private readonly index: Flatbush | null;
  /** Per index item: footprint number, or -(segment item) encoded in the parallel arrays. */
  private readonly kinds: Uint8Array;
  private readonly refs: Int32Array;
  private readonly segs: number[] = [];

  constructor(private readonly o: Obstacles) {
    const segCount = o.corridors.reduce((n, c) => n + Math.max(0, c.points.length / 2 - 1), 0);
    const total = o.footprints.length + segCount + o.discs.length / 3;
    this.kinds = new Uint8Array(total);
    this.refs = new Int32Array(total);
    if (total === 0) {
      this.index = null;
      return;
    }
    const index = new Flatbush(total);
    let n = 0;
    o.footprints.forEach((f, k) => {
      let minX = Infinity,
        minY = Infinity,
        maxX = -Infinity,
        maxY = -Infinity;
      for (let v = 0; v < f.outer.length; v += 2) {
        minX = Math.min(minX, f.outer[v]);
        maxX = Math.max(maxX, f.outer[v]);
        minY = Math.min(minY, f.outer[v + 1]);
        maxY = Math.max(maxY, f.outer[v + 1]);
      }
      index.add(minX, minY, maxX, maxY);
      this.kinds[n] = 0;
      this.refs[n++] = k;
    });
    for (const c of o.corridors) {
      for (let v = 0; v + 3 < c.points.length; v += 2) {
        const ax = c.points[v],
          ay = c.points[v + 1],
          bx = c.points[v + 2],
          by = c.points[v + 3],
          r = c.halfWidth;
        index.add(Math.min(ax, bx) - r, Math.min(ay, by) - r, Math.max(ax, bx) + r, Math.max(ay, by) + r);
        this.kinds[n] = 1;
        this.refs[n++] = this.segs.length / 5;
        this.segs.push(ax, ay, bx, by, r);
      }
    }
    for (let d = 0; d < o.discs.length; d += 3) {
      const x = o.discs[d],
        y = o.discs[d + 1],
        r = o.discs[d + 2];
      index.add(x - r, y - r, x + r, y + r);
      this.kinds[n] = 2;
      this.refs[n++] = d;
    }
    index.finish();
    this.index = index;
  }

  /** Per footprint, a locator made when a point first falls in its box (large water and hard ground are asked thousands of times). */
  private readonly locators: (FootprintLocator | undefined)[] = [];

  private inFootprint(k: number, x: number, y: number): boolean {
    return (this.locators[k] ??= new FootprintLocator(this.o.footprints[k])).contains(x, y);
  }

  blocked(x: number, y: number): boolean {
    if (!this.index) return false;
    const hits = this.index.search(x, y, x, y);
    for (const h of hits) {
      const ref = this.refs[h];
      if (this.kinds[h] === 0) {
        if (this.inFootprint(ref, x, y)) return true;
      } else if (this.kinds[h] === 1) {
        const s = ref * 5;
        if (segmentDistance(x, y, this.segs[s], this.segs[s + 1], this.segs[s + 2], this.segs[s + 3]) < this.segs[s + 4]) return true;
      } else {
        const d = this.o.discs;
        if (Math.hypot(x - d[ref], y - d[ref + 1]) < d[ref + 2]) return true;
      }
    }
    return false;
  }
}

export function segmentDistance(x: number, y: number, ax: number, ay: number, bx: number, by: number): number {
  const dx = bx - ax,
    dy = by - ay;
  const len2 = dx * dx + dy * dy;
  const t = len2 > 0 ? Math.max(0, Math.min(1, ((x - ax) * dx + (y - ay) * dy) / len2)) : 0;
  return Math.hypot(x - ax - t * dx, y - ay - t * dy);
}
