/** A mesh item of a JSON answer: flat vertices, indices when `indexedMeshes`, its descriptor. */
export interface MeshJson {
  vertices: number[];
  indices?: number[];
  descriptor: Record<string, unknown>;
}

/** The triangles of a mesh item, 9 numbers each (indexed or a triangle list). */
export function meshTriangles(m: MeshJson): number[][] {
  const idx = m.indices ?? [...Array(m.vertices.length / 3).keys()];
  const out: number[][] = [];
  for (let t = 0; t < idx.length; t += 3) out.push([0, 1, 2].flatMap((k) => m.vertices.slice(3 * idx[t + k], 3 * idx[t + k] + 3)));
  return out;
}
