import { pointInRing } from './ring.ts';
import type { Footprint, Ring } from './types.ts';

/** Rings with fewer vertices than this are tested whole: sorting their sides into bands costs more than it saves. */
const MIN_BANDED_VERTICES = 24;
/** Sides per band on average (a side spanning several bands is listed in each). */
const SIDES_PER_BAND = 4;

/**
 * Point-in-ring for many points against one large ring: its sides sorted into horizontal bands,
 * so a point is tested against the sides of its band only instead of all of them (a forest of
 * thousands of vertices asked for every 4 m candidate of a tile). The answer is exactly
 * `pointInRing`'s: the same crossing test on the same sides in the same orientation, and a side
 * that crosses height y lies in the band of y.
 */
export class RingLocator {
  private readonly minY: number;
  private readonly maxY: number;
  private readonly bandHeight: number;
  private readonly bands: number;
  /** Per band, where its sides start in `sides` (CSR offsets, bands + 1 entries). */
  private readonly start: Int32Array;
  /** xi, yi, xj, yj per side, band after band. */
  private readonly sides: Float64Array;

  constructor(private readonly ring: Ring) {
    const n = ring.length / 2;
    let minY = Infinity,
      maxY = -Infinity;
    for (let k = 1; k < ring.length; k += 2) {
      minY = Math.min(minY, ring[k]);
      maxY = Math.max(maxY, ring[k]);
    }
    this.minY = minY;
    this.maxY = maxY;
    this.bands = n < MIN_BANDED_VERTICES || !(maxY > minY) ? 0 : Math.max(1, Math.ceil(n / SIDES_PER_BAND));
    this.bandHeight = this.bands > 0 ? (maxY - minY) / this.bands : 0;
    this.start = new Int32Array(this.bands + 1);
    if (this.bands === 0) {
      this.sides = new Float64Array(0);
      return;
    }
    // a side crosses height y when min(yi, yj) <= y < max(yi, yj): list it in the bands of that span
    for (let i = 0, j = n - 1; i < n; j = i++) {
      const [b0, b1] = this.span(ring[2 * i + 1], ring[2 * j + 1]);
      for (let b = b0; b <= b1; b++) this.start[b + 1]++;
    }
    for (let b = 0; b < this.bands; b++) this.start[b + 1] += this.start[b];
    const fill = this.start.slice(0, this.bands);
    const sides = new Float64Array(this.start[this.bands] * 4);
    for (let i = 0, j = n - 1; i < n; j = i++) {
      const [b0, b1] = this.span(ring[2 * i + 1], ring[2 * j + 1]);
      for (let b = b0; b <= b1; b++) {
        const o = fill[b]++ * 4;
        sides[o] = ring[2 * i];
        sides[o + 1] = ring[2 * i + 1];
        sides[o + 2] = ring[2 * j];
        sides[o + 3] = ring[2 * j + 1];
      }
    }
    this.sides = sides;
  }

  /** Whether (x, y) is inside the ring (even-odd), exactly as `pointInRing`. */
  contains(x: number, y: number): boolean {
    if (this.bands === 0) return pointInRing(x, y, this.ring);
    const b = this.band(y);
    if (b < 0) return false;
    const s = this.sides;
    let inside = false;
    for (let o = this.start[b] * 4, end = this.start[b + 1] * 4; o < end; o += 4) {
      const xi = s[o],
        yi = s[o + 1],
        xj = s[o + 2],
        yj = s[o + 3];
      if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
    }
    return inside;
  }

  /** The band holding height y, or -1 outside the ring's height (no side crosses y there). */
  private band(y: number): number {
    if (!(y >= this.minY && y <= this.maxY)) return -1;
    return Math.min(this.bands - 1, Math.floor((y - this.minY) / this.bandHeight));
  }

  /** The bands a side from height ya to yb may cross (a level side crosses none: an empty span). */
  private span(ya: number, yb: number): [number, number] {
    const lo = Math.min(ya, yb),
      hi = Math.max(ya, yb);
    if (lo === hi) return [0, -1];
    const b0 = Math.max(0, Math.floor((lo - this.minY) / this.bandHeight));
    const b1 = Math.min(this.bands - 1, Math.floor((hi - this.minY) / this.bandHeight));
    return [b0, b1];
  }
}

/** A footprint for many points: inside its outer ring and in none of its holes (RingLocators made on the first point asked). */
export class FootprintLocator {
  private rings: RingLocator[] | null = null;

  constructor(private readonly footprint: Footprint) {}

  contains(x: number, y: number): boolean {
    const rings = (this.rings ??= [this.footprint.outer, ...this.footprint.holes].map((r) => new RingLocator(r)));
    if (!rings[0].contains(x, y)) return false;
    for (let k = 1; k < rings.length; k++) if (rings[k].contains(x, y)) return false;
    return true;
  }
}
