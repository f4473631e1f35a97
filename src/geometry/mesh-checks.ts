import type { IndexedMesh } from './types.ts';
import { MeshBuilder } from './mesh-builder.ts';

export interface MeshReport {
  /** Every directed edge is matched by exactly one opposite edge. */
  closed: boolean;
  /** Directed edges without an opposite. */
  openEdges: number;
  /** Directed edges used more than once (inconsistent winding or non-manifold). */
  repeatedEdges: number;
  /** Triangles with (near-)zero area or coincident corners. */
  degenerate: number;
  nonFinite: number;
  /** Signed volume (positive when the mesh faces outwards). */
  volume: number;
  triangles: number;
}

/** Scratch space reused across calls (one thread runs one check at a time). */
const scratchCells = new MeshBuilder();
let edgeScratch = new Float64Array(1024);

/**
 * Judges a mesh the way a CAD user would: closed 2-manifold, consistent outward winding, no
 * degenerate or non-finite triangles. Vertices are compared at millimetre precision (the output's):
 * vertices in one millimetre cell get one canonical id from a weld table, and directed edges are
 * checked by sorting them as numbers, so no string keys or maps are built and every building part
 * can be checked before it is emitted.
 */
export function inspectMesh(mesh: IndexedMesh, minArea = 1e-8): MeshReport {
  const p = mesh.positions,
    idx = mesh.indices;
  const vertexCount = p.length / 3;
  // Canonical id per millimetre cell: weld the rounded coordinates.
  const cells = scratchCells.reset();
  const canon = new Int32Array(vertexCount);
  for (let i = 0; i < vertexCount; i++) {
    canon[i] = cells.vertex(Math.round(p[3 * i] * 1000), Math.round(p[3 * i + 1] * 1000), Math.round(p[3 * i + 2] * 1000));
  }

  // Directed edges as numbers (from · V + to), sorted: repeats are neighbours, opposites found by bisection.
  if (edgeScratch.length < idx.length) edgeScratch = new Float64Array(Math.max(idx.length, 2 * edgeScratch.length));
  const edges = edgeScratch.subarray(0, idx.length);
  let volume = 0,
    degenerate = 0,
    nonFinite = 0;
  for (let t = 0; t < idx.length; t += 3) {
    const ia = idx[t],
      ib = idx[t + 1],
      ic = idx[t + 2];
    const ax = p[3 * ia],
      ay = p[3 * ia + 1],
      az = p[3 * ia + 2];
    const bx = p[3 * ib],
      by = p[3 * ib + 1],
      bz = p[3 * ib + 2];
    const cx = p[3 * ic],
      cy = p[3 * ic + 1],
      cz = p[3 * ic + 2];
    if (
      !(
        Number.isFinite(ax) &&
        Number.isFinite(ay) &&
        Number.isFinite(az) &&
        Number.isFinite(bx) &&
        Number.isFinite(by) &&
        Number.isFinite(bz) &&
        Number.isFinite(cx) &&
        Number.isFinite(cy) &&
        Number.isFinite(cz)
      )
    )
      nonFinite++;
    const ux = bx - ax,
      uy = by - ay,
      uz = bz - az,
      vx = cx - ax,
      vy = cy - ay,
      vz = cz - az;
    const nx = uy * vz - uz * vy,
      ny = uz * vx - ux * vz,
      nz = ux * vy - uy * vx;
    const ka = canon[ia],
      kb = canon[ib],
      kc = canon[ic];
    if (Math.hypot(nx, ny, nz) / 2 < minArea || ka === kb || kb === kc || ka === kc) degenerate++;
    volume += (ax * (by * cz - bz * cy) - ay * (bx * cz - bz * cx) + az * (bx * cy - by * cx)) / 6;
    edges[t] = ka * vertexCount + kb;
    edges[t + 1] = kb * vertexCount + kc;
    edges[t + 2] = kc * vertexCount + ka;
  }
  edges.sort();
  let openEdges = 0,
    repeatedEdges = 0;
  for (let k = 0; k < edges.length; k++) {
    const key = edges[k];
    if (k > 0 && edges[k - 1] === key) continue;
    if (k + 1 < edges.length && edges[k + 1] === key) repeatedEdges++;
    const s = Math.floor(key / vertexCount),
      e = key - s * vertexCount;
    if (!sortedHas(edges, e * vertexCount + s)) openEdges++;
  }
  return { closed: openEdges === 0 && repeatedEdges === 0, openEdges, repeatedEdges, degenerate, nonFinite, volume, triangles: idx.length / 3 };
}

function sortedHas(sorted: Float64Array, value: number): boolean {
  let lo = 0,
    hi = sorted.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const v = sorted[mid];
    if (v === value) return true;
    if (v < value) lo = mid + 1;
    else hi = mid - 1;
  }
  return false;
}
