/**
 * A premium building's finished meshes as one blob (the store's `building_meshes`): a JSON header
 * with each mesh's descriptor and sizes, then per mesh its positions as float32 offsets from the
 * building's anchor (metres in the anchor's stable frame: 15 µm steps within 200 m) and its
 * indices as uint32. Little-endian.
 */
import type { BuildingMesh } from '../../geometry/buildings/from-osm.ts';

interface Header {
  descriptor: Record<string, unknown>;
  vertices: number;
  triangles: number;
}

export function encodeBuildingMeshes(meshes: readonly BuildingMesh[], ax: number, ay: number): Buffer {
  const header: Header[] = meshes.map((m) => ({ descriptor: m.descriptor, vertices: m.mesh.positions.length / 3, triangles: m.mesh.indices.length / 3 }));
  const json = Buffer.from(JSON.stringify(header), 'utf8');
  const start = 4 + Math.ceil(json.length / 4) * 4;
  let size = start;
  for (const h of header) size += 12 * h.vertices + 12 * h.triangles;
  const out = Buffer.alloc(size);
  out.writeUInt32LE(json.length, 0);
  json.copy(out, 4);
  let at = start;
  for (const m of meshes) {
    const p = new Float32Array(out.buffer, out.byteOffset + at, m.mesh.positions.length);
    for (let k = 0; k < p.length; k += 3) {
      p[k] = m.mesh.positions[k] - ax;
      p[k + 1] = m.mesh.positions[k + 1] - ay;
      p[k + 2] = m.mesh.positions[k + 2];
    }
    at += 4 * p.length;
    new Uint32Array(out.buffer, out.byteOffset + at, m.mesh.indices.length).set(m.mesh.indices);
    at += 4 * m.mesh.indices.length;
  }
  return out;
}

/** The meshes back, positions in the anchor's stable frame (ax, ay: the anchor there). */
export function decodeBuildingMeshes(blob: Uint8Array, ax: number, ay: number): BuildingMesh[] {
  const bytes = Buffer.from(blob.buffer, blob.byteOffset, blob.byteLength);
  const length = bytes.readUInt32LE(0);
  const header = JSON.parse(bytes.toString('utf8', 4, 4 + length)) as Header[];
  // a copy aligned for the typed arrays (a row's blob may start at any byte)
  const aligned = new Uint8Array(bytes.byteLength);
  aligned.set(bytes);
  let at = 4 + Math.ceil(length / 4) * 4;
  return header.map((h) => {
    const p = new Float32Array(aligned.buffer, at, 3 * h.vertices);
    at += 12 * h.vertices;
    const positions = new Float64Array(p.length);
    for (let k = 0; k < p.length; k += 3) {
      positions[k] = p[k] + ax;
      positions[k + 1] = p[k + 1] + ay;
      positions[k + 2] = p[k + 2];
    }
    const indices = new Uint32Array(aligned.buffer.slice(at, at + 12 * h.triangles));
    at += 12 * h.triangles;
    return { mesh: { positions, indices }, descriptor: h.descriptor };
  });
}
