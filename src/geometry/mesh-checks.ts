import type { IndexedMesh } from './types.ts';

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

/**
 * Judges a mesh the way a CAD user would: closed 2-manifold, consistent outward winding, no
 * degenerate or non-finite triangles. Vertices are compared at millimetre precision (the output's);
 * vertices in one millimetre cell get one canonical id by sorting, so no string keys are built and
 * every building part can be checked before it is emitted.
 */
export function inspectMesh(mesh: IndexedMesh, minArea = 1e-8): MeshReport {
  const p = mesh.positions, idx = mesh.indices;
  const vertexCount = p.length / 3;
  // Canonical id per millimetre cell: sort vertices by their rounded coordinates.
  const mx = new Float64Array(vertexCount), my = new Float64Array(vertexCount), mz = new Float64Array(vertexCount);
  for (let i = 0; i < vertexCount; i++) {
    mx[i] = Math.round(p[3 * i] * 1000);
    my[i] = Math.round(p[3 * i + 1] * 1000);
    mz[i] = Math.round(p[3 * i + 2] * 1000);
  }
  const order = Array.from({ length: vertexCount }, (_, i) => i).sort((a, b) => mx[a] - mx[b] || my[a] - my[b] || mz[a] - mz[b]);
  const canon = new Int32Array(vertexCount);
  let current = -1;
  for (let k = 0; k < vertexCount; k++) {
    const i = order[k];
    if (k === 0 || !(mx[i] === mx[order[k - 1]] && my[i] === my[order[k - 1]] && mz[i] === mz[order[k - 1]])) current = i;
    canon[i] = current;
  }

  const edges = new Map<number, number>();
  let volume = 0, degenerate = 0, nonFinite = 0;
  for (let t = 0; t < idx.length; t += 3) {
    const ia = idx[t], ib = idx[t + 1], ic = idx[t + 2];
    const ax = p[3 * ia], ay = p[3 * ia + 1], az = p[3 * ia + 2];
    const bx = p[3 * ib], by = p[3 * ib + 1], bz = p[3 * ib + 2];
    const cx = p[3 * ic], cy = p[3 * ic + 1], cz = p[3 * ic + 2];
    if (!(Number.isFinite(ax) && Number.isFinite(ay) && Number.isFinite(az) && Number.isFinite(bx) && Number.isFinite(by) &&
      Number.isFinite(bz) && Number.isFinite(cx) && Number.isFinite(cy) && Number.isFinite(cz))) nonFinite++;
    const ux = bx - ax, uy = by - ay, uz = bz - az, vx = cx - ax, vy = cy - ay, vz = cz - az;
    const nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
    const ka = canon[ia], kb = canon[ib], kc = canon[ic];
    if (Math.hypot(nx, ny, nz) / 2 < minArea || ka === kb || kb === kc || ka === kc) degenerate++;
    volume += (ax * (by * cz - bz * cy) - ay * (bx * cz - bz * cx) + az * (bx * cy - by * cx)) / 6;
    const e1 = ka * vertexCount + kb, e2 = kb * vertexCount + kc, e3 = kc * vertexCount + ka;
    edges.set(e1, (edges.get(e1) ?? 0) + 1);
    edges.set(e2, (edges.get(e2) ?? 0) + 1);
    edges.set(e3, (edges.get(e3) ?? 0) + 1);
  }
  let openEdges = 0, repeatedEdges = 0;
  for (const [key, n] of edges) {
    const s = Math.floor(key / vertexCount), e = key - s * vertexCount;
    if (!edges.has(e * vertexCount + s)) openEdges++;
    if (n > 1) repeatedEdges++;
  }
  return { closed: openEdges === 0 && repeatedEdges === 0, openEdges, repeatedEdges, degenerate, nonFinite, volume, triangles: idx.length / 3 };
}
