/**
 * Multipolygon ring assembly (pure): joins member ways end to end into closed rings, then decides
 * outer/inner by geometry — a ring inside an even number of other rings is an outer, inside an odd
 * number a hole of its smallest container. Roles are only compared with that result (mappers get
 * them wrong or leave them empty), never trusted over it.
 *
 * Coordinates are flat [x0, y0, x1, y1, …]; ways meet where their end points are exactly equal
 * (OSM ways share nodes, so shared ends have identical coordinates).
 */
import { reverseRing, signedArea2 } from '../../geometry/ring.ts';

export interface MemberWay {
  /** 'outer', 'inner' or anything else (empty, wrong); used for diagnostics only. */
  role: string;
  /** Flat [x0, y0, x1, y1, …] of the way's nodes in way order. */
  coords: readonly number[];
}

export type AssemblyResult =
  | {
      ok: true;
      /** Each polygon is [outer, ...holes]; outers counter-clockwise, holes clockwise, no closing duplicate. */
      polygons: number[][][];
      /** Closed rings dropped because they have fewer than 3 distinct points or no area. */
      degenerateRings: number;
      /** Rings whose explicit 'outer'/'inner' role contradicts their nesting. */
      roleMismatches: number;
    }
  | {
      ok: false;
      reason: 'open_ring' | 'no_rings';
      /** Member ways left in chains that could not be closed. */
      openWays: number;
    };

interface RawRing {
  coords: number[];
  roles: Set<string>;
}

function endKey(coords: readonly number[], atEnd: boolean): string {
  const i = atEnd ? coords.length - 2 : 0;
  return `${coords[i]},${coords[i + 1]}`;
}

/** Appends `way` to `chain`, whose last point equals one end of `way`. */
function appendWay(chain: number[], way: readonly number[], reversed: boolean): void {
  const n = way.length / 2;
  if (!reversed) for (let i = 1; i < n; i++) chain.push(way[2 * i], way[2 * i + 1]);
  else for (let i = n - 2; i >= 0; i--) chain.push(way[2 * i], way[2 * i + 1]);
}

/** Joins ways into closed rings; ways that cannot be closed are counted. */
export function joinRings(members: readonly MemberWay[]): { rings: RawRing[]; openWays: number } {
  const rings: RawRing[] = [];
  const open: MemberWay[] = [];
  for (const m of members) {
    if (m.coords.length < 4) continue;
    if (endKey(m.coords, false) === endKey(m.coords, true)) rings.push({ coords: m.coords.slice(0, -2), roles: new Set([m.role]) });
    else open.push(m);
  }
  const byEnd = new Map<string, number[]>();
  const index = (key: string, i: number) => {
    const list = byEnd.get(key);
    if (list) list.push(i);
    else byEnd.set(key, [i]);
  };
  open.forEach((m, i) => {
    index(endKey(m.coords, false), i);
    index(endKey(m.coords, true), i);
  });
  const used = new Array<boolean>(open.length).fill(false);
  let openWays = 0;
  for (let i = 0; i < open.length; i++) {
    if (used[i]) continue;
    used[i] = true;
    const chain = open[i].coords.slice();
    const roles = new Set([open[i].role]);
    let pieces = 1;
    const start = endKey(chain, false);
    let end = endKey(chain, true);
    while (end !== start) {
      const candidates = (byEnd.get(end) ?? []).filter((j) => !used[j]);
      if (candidates.length === 0) break;
      // Prefer a way that closes the ring, so rings touching at a node come out as separate rings.
      const otherEnd = (j: number) => {
        const c = open[j].coords;
        return endKey(c, false) === end ? endKey(c, true) : endKey(c, false);
      };
      const j = candidates.find((c) => otherEnd(c) === start) ?? candidates[0];
      used[j] = true;
      pieces++;
      roles.add(open[j].role);
      appendWay(chain, open[j].coords, endKey(open[j].coords, false) !== end);
      end = endKey(chain, true);
    }
    if (end === start) rings.push({ coords: chain.slice(0, -2), roles });
    else openWays += pieces;
  }
  return { rings, openWays };
}

/** Drops repeated consecutive points (and a closing duplicate); [] when fewer than 3 distinct points or no area remain. */
export function cleanRingPoints(coords: readonly number[]): number[] {
  const out: number[] = [];
  for (let i = 0; i < coords.length; i += 2) {
    const m = out.length;
    if (m >= 2 && out[m - 2] === coords[i] && out[m - 1] === coords[i + 1]) continue;
    out.push(coords[i], coords[i + 1]);
  }
  while (out.length >= 4 && out[0] === out[out.length - 2] && out[1] === out[out.length - 1]) out.length -= 2;
  if (out.length < 6 || signedArea2(out) === 0) return [];
  return out;
}

/** 1 inside, 0 on the boundary, -1 outside (even-odd rule). */
function pointInRing(x: number, y: number, ring: readonly number[]): number {
  let inside = false;
  const n = ring.length / 2;
  for (let i = 0, j = n - 1; i < n; j = i++) {
    const xi = ring[2 * i],
      yi = ring[2 * i + 1],
      xj = ring[2 * j],
      yj = ring[2 * j + 1];
    const cross = (xj - xi) * (y - yi) - (yj - yi) * (x - xi);
    if (cross === 0 && Math.min(xi, xj) <= x && x <= Math.max(xi, xj) && Math.min(yi, yj) <= y && y <= Math.max(yi, yj)) return 0;
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside ? 1 : -1;
}

/** Whether ring `a` lies inside ring `b`, judged by the first of its vertices (then edge midpoints) not on b's boundary. */
function ringInside(a: readonly number[], b: readonly number[]): boolean {
  for (let i = 0; i < a.length; i += 2) {
    const side = pointInRing(a[i], a[i + 1], b);
    if (side !== 0) return side > 0;
  }
  for (let i = 0; i < a.length; i += 2) {
    const k = (i + 2) % a.length;
    const side = pointInRing((a[i] + a[k]) / 2, (a[i + 1] + a[k + 1]) / 2, b);
    if (side !== 0) return side > 0;
  }
  return false; // the same ring twice: not nested
}

interface Classified {
  coords: number[];
  area: number;
  bbox: [number, number, number, number];
  roles: Set<string>;
}

function bboxOf(c: readonly number[]): [number, number, number, number] {
  const b: [number, number, number, number] = [Infinity, Infinity, -Infinity, -Infinity];
  for (let i = 0; i < c.length; i += 2) {
    b[0] = Math.min(b[0], c[i]);
    b[1] = Math.min(b[1], c[i + 1]);
    b[2] = Math.max(b[2], c[i]);
    b[3] = Math.max(b[3], c[i + 1]);
  }
  return b;
}

function bboxContains(outer: readonly number[], inner: readonly number[]): boolean {
  return outer[0] <= inner[0] && outer[1] <= inner[1] && outer[2] >= inner[2] && outer[3] >= inner[3];
}

/** The ring wound counter-clockwise (x east, y north) or clockwise. */
export function orientRing(ring: number[], counterClockwise: boolean): number[] {
  return signedArea2(ring) > 0 === counterClockwise ? ring : reverseRing(ring);
}

/** Assembles the member ways of a multipolygon into polygons with holes. */
export function assembleMultipolygon(members: readonly MemberWay[]): AssemblyResult {
  const { rings, openWays } = joinRings(members);
  if (openWays > 0) return { ok: false, reason: 'open_ring', openWays };
  let degenerateRings = 0;
  const items: Classified[] = [];
  for (const r of rings) {
    const coords = cleanRingPoints(r.coords);
    if (coords.length === 0) {
      degenerateRings++;
      continue;
    }
    items.push({ coords, area: Math.abs(signedArea2(coords)), bbox: bboxOf(coords), roles: r.roles });
  }
  if (items.length === 0) return { ok: false, reason: 'no_rings', openWays: 0 };
  items.sort((a, b) => b.area - a.area);
  const parent = new Array<number>(items.length).fill(-1);
  const depth = new Array<number>(items.length).fill(0);
  for (let i = 1; i < items.length; i++) {
    // Larger rings come first; the smallest one containing ring i is its direct parent.
    for (let j = i - 1; j >= 0; j--) {
      if (items[j].area > items[i].area && bboxContains(items[j].bbox, items[i].bbox) && ringInside(items[i].coords, items[j].coords)) {
        parent[i] = j;
        depth[i] = depth[j] + 1;
        break;
      }
    }
  }
  let roleMismatches = 0;
  const polygonOf = new Map<number, number[][]>();
  const polygons: number[][][] = [];
  items.forEach((item, i) => {
    const isHole = depth[i] % 2 === 1;
    if (item.roles.has(isHole ? 'outer' : 'inner')) roleMismatches++;
    if (isHole) polygonOf.get(parent[i])!.push(orientRing(item.coords, false));
    else {
      const polygon = [orientRing(item.coords, true)];
      polygonOf.set(i, polygon);
      polygons.push(polygon);
    }
  });
  return { ok: true, polygons, degenerateRings, roleMismatches };
}
