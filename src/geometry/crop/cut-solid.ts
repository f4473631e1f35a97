import type { IndexedMesh } from '../types.ts';
import { MeshBuilder } from '../mesh-builder.ts';
import { inspectMesh } from '../mesh-checks.ts';
import { boxRelation, nudgeInwards, type CropPolygon } from './crop-polygon.ts';
import { meshBox, splitAlongPolygon } from './split-mesh.ts';
import { capOpenEdges } from './cap-cut.ts';

export interface CutSolidOptions {
  /** Vertices this close to the boundary move onto it (metres); cut points are at least this far from old vertices. */
  snap: number;
  /** Inward nudges of the polygon (metres) tried in turn when a cut cannot be capped exactly. */
  retries: readonly number[];
}

/** 2 mm: cut points never fall in the same millimetre cell as a vertex (the output rounds to mm). */
export const CUT_SOLID_DEFAULTS: CutSolidOptions = { snap: 0.002, retries: [0.0011, 0.0017, 0.0029] };

export interface CutSolid {
  mesh: IndexedMesh;
  /** Whether the boundary changed the mesh (false: it lay wholly inside). */
  cut: boolean;
  /** Closed, outward 2-manifold (always true for a cut that succeeded; false only when every retry failed). */
  closed: boolean;
}

/**
 * A closed, outward solid (building, barrier) cut by the polygon's vertical prism and capped with
 * walls on the cut planes, so it stays a closed, outward 2-manifold (cropScene).
 * Returns null when nothing of it lies inside the polygon.
 *
 * Steps: split along the edge lines (split-mesh.ts), keep the triangles inside, cap the open edges
 * on each prism face (cap-cut.ts), weld at millimetres (the output precision: slivers under a
 * millimetre collapse instead of opening the mesh) and check the result like every building. A cut
 * that cannot be capped (a wall exactly through a polygon corner) is tried again with the polygon
 * nudged a millimetre or two inwards — never outwards.
 *
 * @example
 * const poly = cropPolygon(tile.polygon);
 * const cut = cutSolid(building.mesh, poly); // null: wholly outside
 */
export function cutSolid(mesh: IndexedMesh, poly: CropPolygon, options: CutSolidOptions = CUT_SOLID_DEFAULTS): CutSolid | null {
  const relation = boxRelation(poly, meshBox(mesh.positions));
  if (relation === 'inside') return { mesh, cut: false, closed: true };
  if (relation === 'outside') return null;
  let fallback: IndexedMesh | null = null;
  for (let attempt = 0; attempt <= options.retries.length; attempt++) {
    const p = attempt === 0 ? poly : nudgeInwards(poly, options.retries[attempt - 1]);
    const r = tryCut(mesh, p, options.snap);
    if (r === 'inside') return { mesh, cut: false, closed: true };
    if (r === 'outside') return null;
    if (r.closed) return { mesh: r.mesh, cut: true, closed: true };
    fallback ??= r.mesh;
  }
  return { mesh: fallback!, cut: true, closed: false };
}

function tryCut(mesh: IndexedMesh, poly: CropPolygon, snap: number): 'inside' | 'outside' | { mesh: IndexedMesh; closed: boolean } {
  const split = splitAlongPolygon(mesh, poly, { snap, solid: true });
  const { positions: P, indices: T, inside, triangleCount } = split;
  let kept = 0;
  for (let t = 0; t < triangleCount; t++) kept += inside[t];
  if (kept === 0) return 'outside';
  if (kept === triangleCount && !split.changed) return 'inside';
  // open edges of the kept triangles: directed edges whose opposite was dropped
  const V = split.vertexCount;
  const directed = new Set<number>();
  for (let t = 0; t < triangleCount; t++) {
    if (!inside[t]) continue;
    for (let j = 0; j < 3; j++) directed.add(T[3 * t + j] * V + T[3 * t + ((j + 1) % 3)]);
  }
  const open: number[] = [];
  for (let t = 0; t < triangleCount; t++) {
    if (!inside[t]) continue;
    for (let j = 0; j < 3; j++) {
      const a = T[3 * t + j], b = T[3 * t + ((j + 1) % 3)];
      if (!directed.has(b * V + a)) open.push(a, b);
    }
  }
  const caps = open.length === 0 ? [] : capOpenEdges(P, open, poly, 4 * snap);
  const builder = new MeshBuilder();
  const id = (v: number) => builder.vertex(mm(P[3 * v]), mm(P[3 * v + 1]), mm(P[3 * v + 2]));
  for (let t = 0; t < triangleCount; t++) if (inside[t]) builder.triangle(id(T[3 * t]), id(T[3 * t + 1]), id(T[3 * t + 2]));
  for (let i = 0; caps && i < caps.length; i += 3) builder.triangle(id(caps[i]), id(caps[i + 1]), id(caps[i + 2]));
  const out = builder.build();
  if (!caps) return { mesh: out, closed: false };
  const report = inspectMesh(out);
  return { mesh: out, closed: report.closed && report.volume > 0 && report.nonFinite === 0 };
}

function mm(v: number): number {
  return Math.round(v * 1000) / 1000;
}
