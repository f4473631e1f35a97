/**
 * The working form of one part while it is repaired: welded points and triangles (index triples),
 * each triangle with the role index of the surface it came from, and the edge bookkeeping the
 * repair steps share.
 */

/** Role indices of a soup: SURFACE_ROLES' order, then `unknown` (decided by the face direction at the end). */
export const ROLE_ROOF = 0,
  ROLE_WALL = 1,
  ROLE_FLOOR = 2,
  ROLE_OTHER = 3,
  ROLE_UNKNOWN = 4;

export interface Soup {
  /** Flat x, y, z (metres, on the millimetre grid). */
  positions: number[];
  /** Vertex index triples. */
  triangles: number[];
  /** Role index per triangle. */
  roles: number[];
}

/** Key of the undirected edge between vertices a and b. */
export function edgeKey(a: number, b: number, vertexCount: number): number {
  return a < b ? a * vertexCount + b : b * vertexCount + a;
}

/** For every undirected edge, the triangles using it. */
export function edgeUses(soup: Soup): Map<number, number[]> {
  const n = soup.positions.length / 3;
  const uses = new Map<number, number[]>();
  const t3 = soup.triangles;
  for (let t = 0; t < t3.length / 3; t++) {
    for (let k = 0; k < 3; k++) {
      const key = edgeKey(t3[3 * t + k], t3[3 * t + ((k + 1) % 3)], n);
      const list = uses.get(key);
      if (list) list.push(t);
      else uses.set(key, [t]);
    }
  }
  return uses;
}

/** Twice the area of triangle t. */
export function triangleArea2(soup: Soup, t: number): number {
  const p = soup.positions,
    i = soup.triangles;
  return normalLength(p, 3 * i[3 * t], 3 * i[3 * t + 1], 3 * i[3 * t + 2]);
}

/** The length of (b − a) × (c − a) for the points at offsets a, b, c of `p` (x, y, z each): twice the triangle's area. */
export function normalLength(p: ArrayLike<number>, a: number, b: number, c: number): number {
  const ux = p[b] - p[a],
    uy = p[b + 1] - p[a + 1],
    uz = p[b + 2] - p[a + 2];
  const vx = p[c] - p[a],
    vy = p[c + 1] - p[a + 1],
    vz = p[c + 2] - p[a + 2];
  return Math.hypot(uy * vz - uz * vy, uz * vx - ux * vz, ux * vy - uy * vx);
}

/** Twice the smallest triangle area kept: the mesh checks' 1e-8 m². */
export const MIN_AREA2 = 2e-8;

/**
 * Drops triangles that collapsed (two corners welded into one, or no area) and faces given more
 * than once. A face found twice is either a surface the file repeats or the wall two blocks of one
 * building share (each block closed on its own): dropping both copies merges the blocks into one
 * solid, and a repeated surface leaves an opening that closing fills again. An odd number of
 * copies keeps one.
 */
export function dropDegenerate(soup: Soup): { collapsed: number; repeated: number } {
  const copies = new Map<string, number[]>();
  let collapsed = 0,
    repeated = 0;
  const t3 = soup.triangles;
  for (let t = 0; t < t3.length / 3; t++) {
    const a = t3[3 * t],
      b = t3[3 * t + 1],
      c = t3[3 * t + 2];
    if (a === b || b === c || a === c || !(triangleArea2(soup, t) >= MIN_AREA2)) {
      collapsed++;
      continue;
    }
    const key = [a, b, c].sort((m, n) => m - n).join(',');
    const list = copies.get(key);
    if (list) list.push(t);
    else copies.set(key, [t]);
  }
  const triangles: number[] = [];
  const roles: number[] = [];
  for (const list of copies.values()) {
    if (list.length > 1) repeated += list.length;
    if (list.length % 2 === 0) continue;
    const t = list[0];
    triangles.push(t3[3 * t], t3[3 * t + 1], t3[3 * t + 2]);
    roles.push(soup.roles[t]);
  }
  soup.triangles = triangles;
  soup.roles = roles;
  return { collapsed, repeated };
}
