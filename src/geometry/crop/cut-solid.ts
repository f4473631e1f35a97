import type { IndexedMesh } from '../types.ts';
import { MeshBuilder } from '../mesh-builder.ts';
import { inspectMesh } from '../mesh-checks.ts';
import { boxRelation, nudgeInwards, type CropPolygon } from './crop-polygon.ts';
import { meshBox, splitAlongPolygon, type SplitMesh } from './split-mesh.ts';
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
  let keptCount = 0;
  for (let t = 0; t < triangleCount; t++) keptCount += inside[t];
  if (keptCount === 0) return 'outside';
  if (keptCount === triangleCount && !split.changed) return 'inside';
  // welded at millimetres first (the output precision): corners where several cutting lines meet
  // leave coincident vertices, and slivers under a millimetre collapse instead of opening the mesh
  const builder = new MeshBuilder();
  const atCorner = cornerWeld(split, poly, snap);
  const id = (v: number) => {
    const c = atCorner.get(v);
    return c ? builder.vertex(c[0], c[1], c[2]) : builder.vertex(mm(P[3 * v]), mm(P[3 * v + 1]), mm(P[3 * v + 2]));
  };
  for (let t = 0; t < triangleCount; t++) if (inside[t]) builder.triangle(id(T[3 * t]), id(T[3 * t + 1]), id(T[3 * t + 2]));
  const kept = builder.build();
  const open = openEdges(kept);
  const caps = open.length === 0 ? [] : capOpenEdges(kept.positions, open, poly, 4 * snap);
  for (let i = 0; caps && i < caps.length; i += 3) builder.triangle(caps[i], caps[i + 1], caps[i + 2]);
  const out = builder.build();
  if (!caps) return { mesh: out, closed: false };
  const report = inspectMesh(out);
  return { mesh: out, closed: report.closed && report.volume > 0 && report.nonFinite === 0 };
}

/** Directed edges (pairs) of a mesh whose opposite edge is missing: where the cut dropped the other side. */
function openEdges(mesh: IndexedMesh): number[] {
  const T = mesh.indices,
    V = mesh.positions.length / 3;
  const directed = new Set<number>();
  for (let t = 0; t < T.length; t += 3) for (let j = 0; j < 3; j++) directed.add(T[t + j] * V + T[t + ((j + 1) % 3)]);
  const open: number[] = [];
  for (let t = 0; t < T.length; t += 3) {
    for (let j = 0; j < 3; j++) {
      const a = T[t + j],
        b = T[t + ((j + 1) % 3)];
      if (!directed.has(b * V + a)) open.push(a, b);
    }
  }
  return open;
}

/**
 * Kept vertices on a polygon corner's vertical line, welded: the cuts along the two edge lines
 * reach the corner from both sides, and a vertex moved onto a line in plan (snap) keeps its
 * height, so the same point of a sloped roof can arrive twice a few millimetres apart in height.
 * Those within CORNER_WELD of each other in height become one vertex on the corner exactly.
 */
function cornerWeld(split: SplitMesh, poly: CropPolygon, snap: number): Map<number, [number, number, number]> {
  const { positions: P, indices: T, inside, triangleCount } = split;
  const out = new Map<number, [number, number, number]>();
  const box = meshBox(P.subarray(0, 3 * split.vertexCount));
  for (let k = 0; k < poly.n; k++) {
    const cx = poly.ring[2 * k],
      cy = poly.ring[2 * k + 1];
    if (cx < box.minX - snap || cx > box.maxX + snap || cy < box.minY - snap || cy > box.maxY + snap) continue;
    const near: number[] = [];
    const seen = new Set<number>();
    for (let t = 0; t < triangleCount; t++) {
      if (!inside[t]) continue;
      for (let j = 0; j < 3; j++) {
        const v = T[3 * t + j];
        if (seen.has(v)) continue;
        seen.add(v);
        if (Math.hypot(P[3 * v] - cx, P[3 * v + 1] - cy) <= CORNER_REACH) near.push(v);
      }
    }
    near.sort((a, b) => P[3 * a + 2] - P[3 * b + 2]);
    let z0 = -Infinity;
    for (const v of near) {
      if (P[3 * v + 2] - z0 > CORNER_WELD) z0 = P[3 * v + 2];
      out.set(v, [mm(cx), mm(cy), mm(z0)]);
    }
  }
  return out;
}

/** Plan distance (metres) within which a cut vertex counts as standing on a polygon corner. */
const CORNER_REACH = 0.0012;
/** Heights (metres) closer than this on a corner line are one point (2 mm of snap on a steep roof moves a height by centimetres). */
const CORNER_WELD = 0.05;

function mm(v: number): number {
  return Math.round(v * 1000) / 1000;
}
