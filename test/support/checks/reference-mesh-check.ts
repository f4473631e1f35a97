import type { IndexedMesh } from '../../../src/geometry/types.ts';
import type { MeshReport } from '../../../src/geometry/mesh-checks.ts';

/**
 * Reference mesh judge for tests: the plainest possible implementation (string keys per
 * millimetre vertex), against which the fast `inspectMesh` is held equal.
 */
export function referenceInspectMesh(mesh: IndexedMesh, minArea = 1e-8): MeshReport {
  const p = mesh.positions,
    idx = mesh.indices;
  const key = (i: number) => `${Math.round(p[3 * i] * 1000)},${Math.round(p[3 * i + 1] * 1000)},${Math.round(p[3 * i + 2] * 1000)}`;
  const edges = new Map<string, number>();
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
    if (![ax, ay, az, bx, by, bz, cx, cy, cz].every(Number.isFinite)) nonFinite++;
    const ux = bx - ax,
      uy = by - ay,
      uz = bz - az,
      vx = cx - ax,
      vy = cy - ay,
      vz = cz - az;
    const nx = uy * vz - uz * vy,
      ny = uz * vx - ux * vz,
      nz = ux * vy - uy * vx;
    const ka = key(ia),
      kb = key(ib),
      kc = key(ic);
    if (Math.hypot(nx, ny, nz) / 2 < minArea || ka === kb || kb === kc || ka === kc) degenerate++;
    volume += (ax * (by * cz - bz * cy) - ay * (bx * cz - bz * cx) + az * (bx * cy - by * cx)) / 6;
    for (const [s, e] of [
      [ka, kb],
      [kb, kc],
      [kc, ka],
    ]) {
      const k = `${s}>${e}`;
      edges.set(k, (edges.get(k) ?? 0) + 1);
    }
  }
  let openEdges = 0,
    repeatedEdges = 0;
  for (const [k, n] of edges) {
    const [s, e] = k.split('>');
    if (!edges.has(`${e}>${s}`)) openEdges++;
    if (n > 1) repeatedEdges++;
  }
  return { closed: openEdges === 0 && repeatedEdges === 0, openEdges, repeatedEdges, degenerate, nonFinite, volume, triangles: idx.length / 3 };
}
