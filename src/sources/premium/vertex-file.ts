/**
 * The `vertices` of a single-file CityJSON, kept on disk: they may come after `CityObjects` in the
 * file (Zürich's sample has them there) and a city's worth does not fit in memory, so the first
 * pass writes them as raw float64 triplets to a temporary file and the second pass reads back the
 * span of indices each object uses, one positioned read per object.
 */
import { closeSync, mkdtempSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const BATCH = 3 * 65536;
/** Largest span read at once (vertices); wider spans are read vertex by vertex. */
const MAX_SPAN = 1 << 20;

export interface Transform {
  scale: [number, number, number];
  translate: [number, number, number];
}

export class VertexFile {
  private readonly dir = mkdtempSync(join(tmpdir(), 'premium-vertices-'));
  private readonly fd = openSync(join(this.dir, 'vertices.f64'), 'w+');
  private readonly batch = new Float64Array(BATCH);
  private filled = 0;
  private written = 0;
  private span = new Float64Array(0);
  private spanStart = 0;
  private spanCount = 0;
  transform: Transform | null = null;

  /** Appends one coordinate value (x, y, z, x, …). */
  push(value: number): void {
    this.batch[this.filled++] = value;
    if (this.filled === BATCH) this.flush();
  }

  private flush(): void {
    if (this.filled === 0) return;
    writeSync(this.fd, new Uint8Array(this.batch.buffer, 0, this.filled * 8), 0, this.filled * 8, this.written * 8);
    this.written += this.filled;
    this.filled = 0;
  }

  /** Call once every value is in; returns false when the count is not a multiple of three. */
  finish(): boolean {
    this.flush();
    return this.written % 3 === 0;
  }

  get count(): number {
    return Math.floor(this.written / 3);
  }

  /** Loads vertices first..last so that `at` can read them without a system call each. */
  load(first: number, last: number): void {
    if (first < 0 || last >= this.count) throw new Error(`vertex index ${first < 0 ? first : last} out of range (the file has ${this.count} vertices)`);
    const count = last - first + 1;
    if (count > MAX_SPAN) {
      this.spanCount = 0;
      return;
    }
    if (this.span.length < count * 3) this.span = new Float64Array(Math.max(count * 3, this.span.length * 2));
    readSync(this.fd, new Uint8Array(this.span.buffer, 0, count * 24), 0, count * 24, first * 24);
    this.spanStart = first;
    this.spanCount = count;
  }

  private readonly one = new Float64Array(3);

  /** Vertex `index` with the transform applied. */
  at(index: number): [number, number, number] {
    let values: Float64Array, o: number;
    if (index >= this.spanStart && index < this.spanStart + this.spanCount) {
      values = this.span;
      o = (index - this.spanStart) * 3;
    } else {
      if (index < 0 || index >= this.count) throw new Error(`vertex index ${index} out of range (the file has ${this.count} vertices)`);
      readSync(this.fd, new Uint8Array(this.one.buffer), 0, 24, index * 24);
      values = this.one;
      o = 0;
    }
    const t = this.transform;
    if (!t) return [values[o], values[o + 1], values[o + 2]];
    return [values[o] * t.scale[0] + t.translate[0], values[o + 1] * t.scale[1] + t.translate[1], values[o + 2] * t.scale[2] + t.translate[2]];
  }

  close(): void {
    closeSync(this.fd);
    rmSync(this.dir, { recursive: true, force: true });
  }
}
