/**
 * Mesh items as an export's tiles hand them to the export thread: binary instead of JSON text.
 * An export's writers want doubles, so JSON would be written digit by digit in the tile and read
 * back the same way in the export thread (with a garbage collection's worth of parsed arrays); here
 * positions are Float64 and indices Uint32 as the tile holds them, and only the descriptors are
 * JSON. One chunk is one ArrayBuffer, moved between threads, and the reader's arrays are views of
 * it (no copy). The positions are the exact doubles: no rounding at all before the file's own.
 *
 * Layout (little-endian; every section starts 8-byte aligned):
 *
 *   magic "\0CCM" · u32 items · u32 floats · u32 indices · u32 descriptor bytes · u32 0
 *   f64 positions[floats]   (every item's xyz, one after the other)
 *   u32 sizes[2 × items]    (floats and indices of each item)
 *   u32 indices[indices]    (each item's own, 0-based)
 *   utf-8 `[descriptor, …]` (JSON)
 *
 * A JSON chunk starts with `{` (items) and never with NUL, so the reader tells the two apart.
 */
import type { IndexedMesh } from '../geometry/types.ts';

const MAGIC = 0x4d434300; // "\0CCM" read as a little-endian u32
const HEAD_BYTES = 24;

const align8 = (n: number) => (n + 7) & ~7;
const encoder = new TextEncoder();

/** `items` as one binary chunk (positions must already be in output coordinates). */
export function writeMeshBinary(items: readonly { mesh: IndexedMesh; descriptor: unknown }[]): Uint8Array<ArrayBuffer> {
  let floats = 0,
    indices = 0;
  for (const { mesh } of items) {
    floats += mesh.positions.length;
    indices += mesh.indices.length;
  }
  const descriptors = encoder.encode(JSON.stringify(items.map((i) => i.descriptor ?? {})));
  const positionsAt = HEAD_BYTES,
    sizesAt = positionsAt + floats * 8,
    indicesAt = sizesAt + items.length * 8,
    descriptorsAt = align8(indicesAt + indices * 4);
  const buffer = new ArrayBuffer(descriptorsAt + descriptors.length);
  new Uint32Array(buffer, 0, 6).set([MAGIC, items.length, floats, indices, descriptors.length, 0]);
  const positions = new Float64Array(buffer, positionsAt, floats),
    sizes = new Uint32Array(buffer, sizesAt, items.length * 2),
    index = new Uint32Array(buffer, indicesAt, indices);
  let f = 0,
    k = 0;
  items.forEach(({ mesh }, n) => {
    positions.set(mesh.positions, f);
    index.set(mesh.indices, k);
    f += mesh.positions.length;
    k += mesh.indices.length;
    sizes[2 * n] = mesh.positions.length;
    sizes[2 * n + 1] = mesh.indices.length;
  });
  const bytes = new Uint8Array(buffer);
  bytes.set(descriptors, descriptorsAt);
  return bytes;
}

/** Whether `chunk` is a binary mesh chunk (else: comma-joined JSON items). */
export function isMeshBinary(chunk: Uint8Array): boolean {
  return chunk.length >= HEAD_BYTES && chunk[0] === 0 && new DataView(chunk.buffer, chunk.byteOffset, 4).getUint32(0, true) === MAGIC;
}

/** One item of a binary chunk: views into the chunk's buffer, and its parsed descriptor. */
export interface MeshBinaryItem {
  positions: Float64Array;
  indices: Uint32Array;
  descriptor: Record<string, unknown>;
}

/**
 * The items of a binary chunk. Their arrays are views of the chunk's buffer (it is copied first
 * only when the chunk does not start 8-byte aligned): whoever rewrites them rewrites the chunk.
 */
export function readMeshBinary(chunk: Uint8Array): MeshBinaryItem[] {
  if (!isMeshBinary(chunk)) throw new Error('not a binary mesh chunk');
  const own = chunk.byteOffset % 8 === 0 ? chunk : chunk.slice();
  const buffer = own.buffer,
    at = own.byteOffset;
  const [, count, floats, indices, descriptorBytes] = new Uint32Array(buffer, at, 6);
  const sizesAt = at + HEAD_BYTES + floats * 8,
    indicesAt = sizesAt + count * 8,
    descriptorsAt = at + align8(indicesAt - at + indices * 4);
  if (descriptorsAt - at + descriptorBytes > own.length) throw new Error('a binary mesh chunk shorter than its header says');
  const sizes = new Uint32Array(buffer, sizesAt, count * 2);
  const descriptors = JSON.parse(new TextDecoder().decode(own.subarray(descriptorsAt - at, descriptorsAt - at + descriptorBytes))) as Record<string, unknown>[];
  const out: MeshBinaryItem[] = [];
  let f = at + HEAD_BYTES,
    k = indicesAt;
  for (let n = 0; n < count; n++) {
    const nf = sizes[2 * n],
      ni = sizes[2 * n + 1];
    out.push({ positions: new Float64Array(buffer, f, nf), indices: new Uint32Array(buffer, k, ni), descriptor: descriptors[n] });
    f += nf * 8;
    k += ni * 4;
  }
  return out;
}
