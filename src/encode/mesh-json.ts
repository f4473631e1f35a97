import type { IndexedMesh } from '../geometry/types.ts';
import { JsonBytesWriter } from './json-bytes.ts';

/** Each vertex's `x,y,z` text, written once per mesh and copied for every corner that uses it. */
const corners = new JsonBytesWriter(1 << 14);
let cornerStart = new Uint32Array(1024);

/**
 * Writes one Mesh object of the response (docs/spec.md "Mesh"): `vertices` as a flat triangle list,
 * or welded vertices plus `indices` when indexed, then the descriptor. Positions must already be in
 * output coordinates.
 */
export function writeMeshJson(w: JsonBytesWriter, mesh: IndexedMesh, descriptor: unknown, indexed: boolean): void {
  const p = mesh.positions,
    idx = mesh.indices;
  w.raw('{"vertices":[');
  if (indexed) {
    for (let i = 0; i < p.length; i++) {
      if (i > 0) w.byte(44);
      w.mm(p[i]);
    }
    w.raw('],"indices":[');
    for (let i = 0; i < idx.length; i++) {
      if (i > 0) w.byte(44);
      w.uint(idx[i]);
    }
  } else {
    // A triangle list repeats each vertex about six times: format it once, copy the bytes.
    const count = p.length / 3;
    if (cornerStart.length < count + 1) cornerStart = new Uint32Array(2 * count + 1);
    corners.reset();
    for (let v = 0; v < count; v++) {
      cornerStart[v] = corners.length;
      corners
        .mm(p[3 * v])
        .byte(44)
        .mm(p[3 * v + 1])
        .byte(44)
        .mm(p[3 * v + 2]);
    }
    cornerStart[count] = corners.length;
    const text = corners.bytes();
    for (let i = 0; i < idx.length; i++) {
      if (i > 0) w.byte(44);
      w.append(text, cornerStart[idx[i]], cornerStart[idx[i] + 1]);
    }
  }
  w.raw('],"descriptor":').value(descriptor).byte(125);
}
