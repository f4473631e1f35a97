const TWO32 = 4294967296;

/**
 * A max-heap of grid cells by height, ties broken by the lower index — a total order, so cells
 * come out in the same order whichever window of the raster they were read in (the order of two
 * cells' indices is the same in every window holding both). Each entry is one double: the height
 * in millimetres above 2^32, the reversed index below — one comparison, no lookup, so the million
 * cells of a square kilometre of crowns stay in cache.
 */
export class PixelHeap {
  private keys: Float64Array;
  private n = 0;

  constructor(capacity = 1024) {
    this.keys = new Float64Array(Math.max(16, capacity));
  }

  get size(): number {
    return this.n;
  }

  /** Adds cell `i` (< 2^32) of height `h` metres (0 ≤ h < 2,000,000; millimetres decide the order). */
  push(i: number, h: number): void {
    if (this.n === this.keys.length) {
      const grown = new Float64Array(this.keys.length * 2);
      grown.set(this.keys);
      this.keys = grown;
    }
    const a = this.keys;
    const key = Math.round(h * 1000) * TWO32 + (TWO32 - 1 - i);
    let k = this.n++;
    while (k > 0) {
      const p = (k - 1) >> 1;
      if (a[p] >= key) break;
      a[k] = a[p];
      k = p;
    }
    a[k] = key;
  }

  /** Removes and returns the highest cell's index. */
  pop(): number {
    const a = this.keys;
    const top = a[0];
    const last = a[--this.n];
    const n = this.n;
    let k = 0;
    for (;;) {
      let c = 2 * k + 1;
      if (c >= n) break;
      if (c + 1 < n && a[c + 1] > a[c]) c++;
      if (last >= a[c]) break;
      a[k] = a[c];
      k = c;
    }
    a[k] = last;
    return TWO32 - 1 - (top - Math.floor(top / TWO32) * TWO32);
  }
}
