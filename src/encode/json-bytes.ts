import { grownBytes } from './grow-bytes.ts';

/**
 * A small, fast JSON byte writer for geometry. JSON.stringify of millions of numbers is the
 * bottleneck of large responses, so numbers are written digit by digit, rounded to millimetres
 * (docs/design.md), straight into a growing byte buffer that can be transferred between threads.
 * An export's tiles write micrometres instead (`decimals` 6, plan-request.ts `output.decimals`):
 * the file's coordinates are reprojected from these numbers, and rounding them to millimetres
 * first would add a second rounding to the geometry's own millimetre grid (docs/exports.md "Precision").
 */
export class JsonBytesWriter {
  private buf: Uint8Array<ArrayBuffer>;
  private pos = 0;
  private static readonly encoder = new TextEncoder();
  /** 10^decimals. */
  private readonly scale: number;

  constructor(
    initialBytes = 1 << 16,
    private readonly decimals = 3,
  ) {
    this.buf = new Uint8Array(initialBytes);
    this.scale = 10 ** decimals;
  }

  get length(): number {
    return this.pos;
  }

  private ensure(extra: number): void {
    if (this.pos + extra > this.buf.length) this.buf = grownBytes(this.buf, this.pos, extra);
  }

  /** Writes ASCII text as is (structural JSON such as `{"vertices":[`). */
  raw(text: string): this {
    this.ensure(text.length);
    for (let i = 0; i < text.length; i++) this.buf[this.pos++] = text.charCodeAt(i);
    return this;
  }

  byte(code: number): this {
    this.ensure(1);
    this.buf[this.pos++] = code;
    return this;
  }

  /** Writes any JSON value with JSON.stringify (for small metadata such as descriptors). */
  value(v: unknown): this {
    const bytes = JsonBytesWriter.encoder.encode(JSON.stringify(v) ?? 'null');
    this.ensure(bytes.length);
    this.buf.set(bytes, this.pos);
    this.pos += bytes.length;
    return this;
  }

  /** Writes a number rounded to the writer's decimals (3: millimetres), without trailing zeros or a negative zero. */
  mm(x: number): this {
    if (!Number.isFinite(x)) throw new Error('non-finite number in geometry output');
    if (this.decimals !== 3) return this.fixed(x);
    let v = Math.round(x * 1000);
    this.ensure(24);
    const b = this.buf;
    if (v === 0) {
      b[this.pos++] = 48;
      return this;
    }
    if (v < 0) {
      b[this.pos++] = 45;
      v = -v;
    }
    const int = Math.floor(v / 1000);
    let frac = v - int * 1000;
    this.uint(int);
    if (frac !== 0) {
      b[this.pos++] = 46;
      const d1 = Math.floor(frac / 100);
      frac -= d1 * 100;
      const d2 = Math.floor(frac / 10);
      const d3 = frac - d2 * 10;
      b[this.pos++] = 48 + d1;
      if (d2 !== 0 || d3 !== 0) b[this.pos++] = 48 + d2;
      if (d3 !== 0) b[this.pos++] = 48 + d3;
    }
    return this;
  }

  /** `mm` for any number of decimals. */
  private fixed(x: number): this {
    let v = Math.round(x * this.scale);
    this.ensure(32);
    const b = this.buf;
    if (v === 0) {
      b[this.pos++] = 48;
      return this;
    }
    if (v < 0) {
      b[this.pos++] = 45;
      v = -v;
    }
    const int = Math.floor(v / this.scale);
    let frac = v - int * this.scale;
    this.uint(int);
    if (frac === 0) return this;
    b[this.pos++] = 46;
    let digits = this.decimals;
    while (frac % 10 === 0) {
      frac /= 10;
      digits--;
    }
    let p = this.pos + digits;
    this.pos = p;
    for (let d = 0; d < digits; d++, frac = Math.floor(frac / 10)) b[--p] = 48 + (frac % 10);
    return this;
  }

  /** Writes a non-negative integer. */
  uint(n: number): this {
    this.ensure(20);
    const b = this.buf;
    if (n < 10) {
      b[this.pos++] = 48 + n;
      return this;
    }
    let digits = 0;
    for (let t = n; t >= 1; t = Math.floor(t / 10)) digits++;
    let p = this.pos + digits;
    this.pos = p;
    for (let t = n; t >= 1; t = Math.floor(t / 10)) b[--p] = 48 + (t % 10);
    return this;
  }

  /** Appends bytes [start, end) of another writer's buffer (short runs: a plain loop beats subarray + set). */
  append(src: Uint8Array, start: number, end: number): this {
    this.ensure(end - start);
    const b = this.buf;
    let p = this.pos;
    for (let i = start; i < end; i++) b[p++] = src[i];
    this.pos = p;
    return this;
  }

  /** Forgets what was written, keeping the buffer (scratch writers). */
  reset(): this {
    this.pos = 0;
    return this;
  }

  /** The bytes written so far (a view; copy or transfer it). */
  bytes(): Uint8Array {
    return this.buf.subarray(0, this.pos);
  }

  /** The bytes written so far in an exact-size buffer, suitable for transfer. */
  take(): Uint8Array {
    return this.buf.slice(0, this.pos);
  }
}
