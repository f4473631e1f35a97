/**
 * Closing what a city model leaves open. LoD2 solids very often have no ground surface, and
 * sometimes a missing or displaced wall or roof piece: every loop of edges used by one triangle
 * only is an opening, filled by triangulating the loop in its best-fit plane. A level opening at
 * the bottom of the part is its floor, one at the top its roof; any other is `other`.
 */
import { newellNormal, planeTriangles } from './plane-triangles.ts';
import { edgeUses, ROLE_FLOOR, ROLE_OTHER, ROLE_ROOF, type Soup } from './soup.ts';

export interface Openings {
  /** Loops filled as a floor. */
  floors: number;
  /** Loops filled as a roof (level, at the top). */
  roofs: number;
  /** Other loops filled. */
  others: number;
  /** Loops that could not be triangulated (fewer than three points, or no area in any plane). */
  unfilled: number;
}

export function closeOpenings(soup: Soup): Openings {
  const result: Openings = { floors: 0, roofs: 0, others: 0, unfilled: 0 };
  const n = soup.positions.length / 3;
  const uses = edgeUses(soup);
  // boundary edges: vertex → its neighbours along an edge that only one triangle uses
  const next = new Map<number, number[]>();
  for (const [key, list] of uses) {
    if (list.length !== 1) continue;
    const a = Math.floor(key / n),
      b = key - a * n;
    for (const [u, v] of [
      [a, b],
      [b, a],
    ]) {
      const l = next.get(u);
      if (l) l.push(v);
      else next.set(u, [v]);
    }
  }
  if (next.size === 0) return result;
  let minZ = Infinity,
    maxZ = -Infinity;
  for (let i = 2; i < soup.positions.length; i += 3) {
    minZ = Math.min(minZ, soup.positions[i]);
    maxZ = Math.max(maxZ, soup.positions[i]);
  }
  for (const loop of boundaryLoops(next)) {
    const ring: number[] = [];
    for (const v of loop) ring.push(soup.positions[3 * v], soup.positions[3 * v + 1], soup.positions[3 * v + 2]);
    const triangles = loop.length >= 3 ? planeTriangles([ring]) : null;
    if (!triangles || triangles.length === 0) {
      result.unfilled++;
      continue;
    }
    const normal = newellNormal([ring]);
    const nz = normal[2];
    const normalLength = Math.hypot(...normal);
    let loopBottom = Infinity,
      loopTop = -Infinity;
    for (let i = 2; i < ring.length; i += 3) {
      loopBottom = Math.min(loopBottom, ring[i]);
      loopTop = Math.max(loopTop, ring[i]);
    }
    // more level than upright, and reaching down to the part's lowest point (ground under a building may slope)
    const flat = Math.abs(nz) > 0.5 * normalLength;
    const atBottom = loopBottom - minZ < Math.min(1, 0.25 * (maxZ - minZ));
    // a level opening at the top is where the roof should be (e.g. an overhanging roof sheet that meets no wall)
    const atTop = maxZ - loopTop < Math.min(1, 0.25 * (maxZ - minZ));
    const role = flat && atBottom ? ROLE_FLOOR : flat && atTop ? ROLE_ROOF : ROLE_OTHER;
    if (role === ROLE_FLOOR) result.floors++;
    else if (role === ROLE_ROOF) result.roofs++;
    else result.others++;
    for (let t = 0; t < triangles.length; t += 3) {
      soup.triangles.push(loop[triangles[t]], loop[triangles[t + 1]], loop[triangles[t + 2]]);
      soup.roles.push(role);
    }
  }
  return result;
}

/** Closed walks along boundary edges, each edge once; where a vertex has more than two such edges the walk takes the first free one. */
function boundaryLoops(next: Map<number, number[]>): number[][] {
  const usedEdge = new Set<string>();
  const loops: number[][] = [];
  const take = (u: number): number | undefined => {
    for (const v of next.get(u) ?? []) {
      const key = u < v ? `${u},${v}` : `${v},${u}`;
      if (!usedEdge.has(key)) {
        usedEdge.add(key);
        return v;
      }
    }
    return undefined;
  };
  for (const start of next.keys()) {
    for (;;) {
      const first = take(start);
      if (first === undefined) break;
      const loop = [start];
      let at = first;
      while (at !== start) {
        loop.push(at);
        const v = take(at);
        if (v === undefined) break;
        at = v;
      }
      // a walk that found no way back is not a loop: it is left open (the checks report it)
      if (at === start) loops.push(...splitRepeats(loop));
    }
  }
  return loops;
}

/** A walk through a vertex twice is two loops (figure eight): split at the repeated vertex. */
function splitRepeats(loop: number[]): number[][] {
  const at = new Map<number, number>();
  for (let k = 0; k < loop.length; k++) {
    const before = at.get(loop[k]);
    if (before !== undefined) {
      const inner = loop.slice(before, k);
      const outer = [...loop.slice(0, before), ...loop.slice(k)];
      return [...splitRepeats(inner), ...splitRepeats(outer)];
    }
    at.set(loop[k], k);
  }
  return [loop];
}
