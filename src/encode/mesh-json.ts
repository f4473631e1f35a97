import type { IndexedMesh } from '../geometry/types.ts';
import type { JsonBytesWriter } from './json-bytes.ts';

/**
 * Writes one Mesh object of the response (SPEC "Mesh"): `vertices` as a flat triangle list, or
 * welded vertices plus `indices` when indexed, then the descriptor. Positions must already be in
 * output coordinates.
 */
export function writeMeshJson(w: JsonBytesWriter, mesh: IndexedMesh, descriptor: unknown, indexed: boolean): void {
  const p = mesh.positions, idx = mesh.indices;
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
    for (let i = 0; i < idx.length; i++) {
      const v = 3 * idx[i];
      if (i > 0) w.byte(44);
      w.mm(p[v]).byte(44).mm(p[v + 1]).byte(44).mm(p[v + 2]);
    }
  }
  w.raw('],"descriptor":').value(descriptor).byte(125);
}
