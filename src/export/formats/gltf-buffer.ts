/**
 * The binary side of our glTF writer: one buffer with two bufferViews — vertex positions (float32
 * VEC3, stride 12, ARRAY_BUFFER) and triangle indices (ELEMENT_ARRAY_BUFFER) — sized once from
 * the scene before anything is written, so a 10 km² export fills one allocation instead of
 * growing and copying. Indices are uint16 when a mesh has fewer than 65,536 vertices (nearly
 * every feature), else uint32; each index run starts 4-byte aligned as glTF requires.
 *
 * Accessor `min`/`max` of POSITION are taken from the float32 values actually stored (the
 * validator compares them exactly).
 */

const FLOAT = 5126,
  UNSIGNED_SHORT = 5123,
  UNSIGNED_INT = 5125;
const ARRAY_BUFFER = 34962,
  ELEMENT_ARRAY_BUFFER = 34963;

/** glTF accessor JSON as we write it. */
export interface GltfAccessor {
  bufferView: number;
  byteOffset: number;
  componentType: number;
  count: number;
  type: 'VEC3' | 'SCALAR';
  min?: number[];
  max?: number[];
}

/** Byte length of an index run of `count` indices into a mesh of `vertices` vertices, padded to 4. */
export function indexBytes(count: number, vertices: number): number {
  return vertices < 65536 ? (count * 2 + 3) & ~3 : count * 4;
}

export class GltfBufferBuilder {
  readonly accessors: GltfAccessor[] = [];
  private readonly bytes: Uint8Array;
  private readonly floats: Float32Array;
  private readonly shorts: Uint16Array;
  private readonly ints: Uint32Array;
  /** Next free float in the vertex region; next free byte in the index region. */
  private vertexAt = 0;
  private indexAt: number;

  /** `vertexFloats`: total floats of every POSITION; `indexByteLength`: sum of `indexBytes` of every index run. */
  constructor(
    private readonly vertexFloats: number,
    private readonly indexByteLength: number,
  ) {
    const buffer = new ArrayBuffer(vertexFloats * 4 + indexByteLength);
    this.bytes = new Uint8Array(buffer);
    this.floats = new Float32Array(buffer, 0, vertexFloats);
    this.shorts = new Uint16Array(buffer);
    this.ints = new Uint32Array(buffer);
    this.indexAt = vertexFloats * 4;
  }

  /**
   * Positions through `map` (scene xyz → glTF xyz written into `out` at `o`); returns the accessor index.
   * `count` xyz triples are read from `src`.
   */
  positions(src: ArrayLike<number>, count: number, map: (src: ArrayLike<number>, i: number, out: Float32Array, o: number) => void): number {
    const f = this.floats,
      start = this.vertexAt;
    for (let i = 0; i < count; i++) map(src, i * 3, f, start + i * 3);
    const min = [Infinity, Infinity, Infinity],
      max = [-Infinity, -Infinity, -Infinity];
    for (let i = start; i < start + count * 3; i += 3) {
      for (let k = 0; k < 3; k++) {
        const v = f[i + k];
        if (v < min[k]) min[k] = v;
        if (v > max[k]) max[k] = v;
      }
    }
    this.vertexAt += count * 3;
    return this.accessors.push({ bufferView: 0, byteOffset: start * 4, componentType: FLOAT, count, type: 'VEC3', min, max }) - 1;
  }

  /** Triangle (or line) indices into a mesh of `vertices` vertices; returns the accessor index. */
  indices(src: ArrayLike<number>, vertices: number): number {
    const start = this.indexAt,
      n = src.length;
    const short = vertices < 65536;
    if (short) {
      const s = this.shorts,
        o = start >> 1;
      for (let i = 0; i < n; i++) s[o + i] = src[i];
    } else {
      const s = this.ints,
        o = start >> 2;
      for (let i = 0; i < n; i++) s[o + i] = src[i];
    }
    this.indexAt += indexBytes(n, vertices);
    const byteOffset = start - this.vertexFloats * 4;
    return this.accessors.push({ bufferView: 1, byteOffset, componentType: short ? UNSIGNED_SHORT : UNSIGNED_INT, count: n, type: 'SCALAR' }) - 1;
  }

  /** The filled buffer and its bufferViews (views without data are left out and accessors renumbered to match). */
  finish(): { bytes: Uint8Array; bufferViews: Record<string, number>[] } {
    if (this.vertexAt !== this.vertexFloats || this.indexAt !== this.bytes.length) {
      throw new Error(`glTF buffer sized for ${this.vertexFloats} floats and ${this.bytes.length} bytes, filled ${this.vertexAt} and ${this.indexAt}`);
    }
    const views: Record<string, number>[] = [];
    const vertexBytes = this.vertexFloats * 4;
    if (vertexBytes > 0) views.push({ buffer: 0, byteOffset: 0, byteLength: vertexBytes, byteStride: 12, target: ARRAY_BUFFER });
    if (this.indexByteLength > 0) {
      const view = views.length;
      views.push({ buffer: 0, byteOffset: vertexBytes, byteLength: this.indexByteLength, target: ELEMENT_ARRAY_BUFFER });
      if (view !== 1) for (const a of this.accessors) if (a.type === 'SCALAR') a.bufferView = view;
    }
    return { bytes: this.bytes, bufferViews: views };
  }
}
