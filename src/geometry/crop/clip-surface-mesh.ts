import type { IndexedMesh } from '../types.ts';
import { MeshBuilder } from '../mesh-builder.ts';
import { boxRelation, type CropPolygon } from './crop-polygon.ts';
import { meshBox, splitAlongPolygon } from './split-mesh.ts';

/** Terrain vertices this close to the boundary move onto it (metres): no sliver triangles under a millimetre. */
export const SURFACE_SNAP = 0.001;

/**
 * An open surface mesh (terrain) clipped to the polygon (cropScene): triangles the boundary
 * crosses are split along it — the new vertices lie on the triangle's plane, so the cut edge
 * follows the terrain — and only those inside are kept. Neighbouring tiles split their shared
 * seam edges at identical points (split-mesh.ts), so the clipped tiles still meet without cracks.
 * Returns null when nothing lies inside; the same mesh when it lies wholly inside.
 */
export function clipSurfaceMesh(mesh: IndexedMesh, poly: CropPolygon): IndexedMesh | null {
  const relation = boxRelation(poly, meshBox(mesh.positions));
  if (relation === 'inside') return mesh;
  if (relation === 'outside') return null;
  const s = splitAlongPolygon(mesh, poly, { snap: SURFACE_SNAP, solid: false });
  const builder = new MeshBuilder();
  const ids = new Int32Array(s.vertexCount).fill(-1);
  const P = s.positions,
    T = s.indices;
  const id = (v: number) => (ids[v] >= 0 ? ids[v] : (ids[v] = builder.vertex(P[3 * v], P[3 * v + 1], P[3 * v + 2])));
  for (let t = 0; t < s.triangleCount; t++) if (s.inside[t]) builder.triangle(id(T[3 * t]), id(T[3 * t + 1]), id(T[3 * t + 2]));
  return builder.triangleCount === 0 ? null : builder.build();
}
