/**
 * T-junctions: in city models a wall's top edge often runs along several roof edges, and a roof
 * edge along several wall corners, so a vertex of one surface lies in the middle of another's
 * edge. Edges are then not shared and the solid is open at millimetre precision. Every triangle
 * side gets the vertices lying on it (within T_JUNCTION_TOLERANCE), and the triangle is fanned so the
 * side is walked vertex by vertex, like the neighbour's.
 */
import { WELD_TOLERANCE } from './weld.ts';

/**
 * How near a side a vertex must be to be put on it: twice the weld tolerance, because welding
 * snaps points to the millimetre grid, which moves a point lying on a side by up to 0.87 mm.
 */
export const T_JUNCTION_TOLERANCE = 2 * WELD_TOLERANCE;

/** Triangles (index triples into positions) with every vertex lying on a side inserted into that side. */
export function splitTJunctions(
  positions: readonly number[],
  triangles: readonly number[],
  roles: readonly number[],
  tolerance = T_JUNCTION_TOLERANCE,
): { triangles: number[]; roles: number[] } {
  const vertexCount = positions.length / 3;
  const out: number[] = [];
  const outRoles: number[] = [];
  const sideCache = new Map<string, number[]>();
  const side = (a: number, b: number): number[] => {
    const key = a < b ? `${a},${b}` : `${b},${a}`;
    let chain = sideCache.get(key);
    if (!chain) {
      chain = verticesOnSegment(positions, a < b ? a : b, a < b ? b : a, vertexCount, tolerance);
      sideCache.set(key, chain);
    }
    return a < b ? chain : [...chain].reverse();
  };
  for (let t = 0; t < triangles.length; t += 3) {
    const a = triangles[t],
      b = triangles[t + 1],
      c = triangles[t + 2];
    const before = out.length;
    fan(a, b, c, side(a, b), side(b, c), side(c, a), out);
    for (let k = before; k < out.length; k += 3) outRoles.push(roles[t / 3]);
  }
  return { triangles: out, roles: outRoles };
}

/** Vertices strictly inside segment a–b within `tolerance` of it, ordered from a to b. */
function verticesOnSegment(p: readonly number[], a: number, b: number, vertexCount: number, tolerance: number): number[] {
  const ax = p[3 * a],
    ay = p[3 * a + 1],
    az = p[3 * a + 2];
  const dx = p[3 * b] - ax,
    dy = p[3 * b + 1] - ay,
    dz = p[3 * b + 2] - az;
  const len2 = dx * dx + dy * dy + dz * dz;
  if (len2 === 0) return [];
  const minX = Math.min(ax, ax + dx) - tolerance,
    maxX = Math.max(ax, ax + dx) + tolerance;
  const minY = Math.min(ay, ay + dy) - tolerance,
    maxY = Math.max(ay, ay + dy) + tolerance;
  const minZ = Math.min(az, az + dz) - tolerance,
    maxZ = Math.max(az, az + dz) + tolerance;
  const found: { v: number; along: number }[] = [];
  for (let v = 0; v < vertexCount; v++) {
    if (v === a || v === b) continue;
    const x = p[3 * v],
      y = p[3 * v + 1],
      z = p[3 * v + 2];
    if (x < minX || x > maxX || y < minY || y > maxY || z < minZ || z > maxZ) continue;
    const wx = x - ax,
      wy = y - ay,
      wz = z - az;
    const along = (wx * dx + wy * dy + wz * dz) / len2;
    if (!(along > 0 && along < 1)) continue;
    const ox = wx - along * dx,
      oy = wy - along * dy,
      oz = wz - along * dz;
    if (ox * ox + oy * oy + oz * oz <= tolerance * tolerance) found.push({ v, along });
  }
  return found.sort((m, n) => m.along - n.along).map((f) => f.v);
}

/** Emits a→b→c with extra vertices on its sides, each loaded side fanned from its opposite corner. */
function fan(a: number, b: number, c: number, ab: number[], bc: number[], ca: number[], out: number[]): void {
  if (ab.length === 0 && bc.length === 0 && ca.length === 0) {
    out.push(a, b, c);
    return;
  }
  if (ab.length === 0) {
    if (bc.length > 0) fan(b, c, a, bc, ca, ab, out);
    else fan(c, a, b, ca, ab, bc, out);
    return;
  }
  const chain = [a, ...ab, b];
  for (let k = 0; k + 1 < chain.length; k++) {
    const first = k === 0,
      last = k + 1 === chain.length - 1;
    // a vertex that lay on a side may be the opposite corner itself (a sliver): those triangles collapse and are dropped later
    fan(chain[k], chain[k + 1], c, [], last ? bc : [], first ? ca : [], out);
  }
}
