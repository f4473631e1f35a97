/**
 * Where a solid touches itself along an edge. LoD2 buildings often consist of blocks meeting at a
 * corner line (two wings touching at one vertical edge): that edge has four faces, and no winding
 * makes it a 2-manifold at millimetre precision. Around each end of such an edge the faces fall
 * into fans joined by ordinary edges (two faces each); every fan but the first gets its own copy of
 * the vertex, moved `SEPARATION` into the fan so that the blocks stay apart by a hair and each is
 * closed on its own.
 */
import { edgeKey, edgeUses, type Soup } from './soup.ts';

/** How far a vertex copy moves into its fan (metres): beyond the millimetre cell of the mesh checks. */
export const SEPARATION = 0.002;

/** Separates the fans at every vertex of an edge used by more than two faces; returns the number of such edges. */
export function separateTouching(soup: Soup): number {
  const n = soup.positions.length / 3;
  const uses = edgeUses(soup);
  const vertices = new Set<number>();
  let edges = 0;
  for (const [key, list] of uses) {
    if (list.length <= 2) continue;
    edges++;
    const a = Math.floor(key / n);
    vertices.add(a);
    vertices.add(key - a * n);
  }
  if (edges === 0) return 0;
  const around = new Map<number, number[]>();
  const t3 = soup.triangles;
  for (let t = 0; t < t3.length / 3; t++)
    for (let k = 0; k < 3; k++) {
      const v = t3[3 * t + k];
      if (!vertices.has(v)) continue;
      const list = around.get(v);
      if (list) list.push(t);
      else around.set(v, [t]);
    }
  // the faces of a crowded edge are paired as the fans at its first end group them, and the pairs
  // hold at its other end too: both ends must split the edge the same way or it opens
  const links: [number, number][] = [];
  for (const [key, list] of uses) {
    if (list.length <= 2) continue;
    const a = Math.floor(key / n);
    const fans = fansAt(a, around.get(a)!, soup, uses, n, []);
    const groups = fans.map((fan) => list.filter((t) => fan.includes(t))).filter((g) => g.length > 0);
    if (groups.every((g) => g.length === 2)) for (const [t, u] of groups) links.push([t, u]);
  }
  for (const [v, tris] of around) {
    const fans = fansAt(v, tris, soup, uses, n, links);
    for (let f = 1; f < fans.length; f++) {
      const copy = soup.positions.length / 3;
      const [dx, dy, dz] = intoFan(v, fans[f], soup);
      soup.positions.push(soup.positions[3 * v] + dx, soup.positions[3 * v + 1] + dy, soup.positions[3 * v + 2] + dz);
      for (const t of fans[f]) for (let k = 0; k < 3; k++) if (t3[3 * t + k] === v) t3[3 * t + k] = copy;
    }
  }
  return edges;
}

/** The triangles around v grouped by the ordinary (two-face) edges at v that join them, and by `links`. */
function fansAt(v: number, tris: number[], soup: Soup, uses: Map<number, number[]>, n: number, links: readonly [number, number][]): number[][] {
  const parent = new Map<number, number>(tris.map((t) => [t, t]));
  const find = (t: number): number => {
    let r = t;
    while (parent.get(r) !== r) r = parent.get(r)!;
    parent.set(t, r);
    return r;
  };
  const t3 = soup.triangles;
  for (const t of tris)
    for (let k = 0; k < 3; k++) {
      const w = t3[3 * t + k];
      if (w === v) continue;
      const list = uses.get(edgeKey(v, w, n));
      if (list && list.length === 2 && parent.has(list[0]) && parent.has(list[1])) parent.set(find(list[0]), find(list[1]));
    }
  for (const [t, u] of links) if (parent.has(t) && parent.has(u)) parent.set(find(t), find(u));
  const groups = new Map<number, number[]>();
  for (const t of tris) {
    const r = find(t);
    const g = groups.get(r);
    if (g) g.push(t);
    else groups.set(r, [t]);
  }
  return [...groups.values()];
}

/** A step of SEPARATION from v towards the middle of its fan's triangles. */
function intoFan(v: number, fan: number[], soup: Soup): [number, number, number] {
  const p = soup.positions,
    t3 = soup.triangles;
  let x = 0,
    y = 0,
    z = 0;
  for (const t of fan)
    for (let k = 0; k < 3; k++) {
      const w = 3 * t3[3 * t + k];
      x += p[w] - p[3 * v];
      y += p[w + 1] - p[3 * v + 1];
      z += p[w + 2] - p[3 * v + 2];
    }
  const len = Math.hypot(x, y, z);
  return len > 0 ? [(x / len) * SEPARATION, (y / len) * SEPARATION, (z / len) * SEPARATION] : [SEPARATION, 0, 0];
}
