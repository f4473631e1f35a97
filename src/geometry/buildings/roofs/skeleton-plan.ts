import type { Footprint } from '../../types.ts';
import { signedArea2 } from '../../ring.ts';
import type { FootprintSkeleton } from '../../skeleton/types.ts';
import type { RoofPlan } from './plan.ts';
import { addPlanVertex, emptyPlan, planArea2 } from './plan.ts';
import { polygonArea2, polygonIsSimple } from '../../planar/polygon-checks.ts';
import { triangulateRings } from '../../triangulate/index.ts';

/**
 * A roof plan from the straight skeleton: one face per footprint side, `s` = offset time / the
 * largest offset time, so a linear profile gives a hipped roof whose top is exactly the roof height.
 *
 * With `gables`, ridge ends become gables (as on a gabled roof over an L, T or U): a triangular hip
 * face whose top node ends a ridge is folded up into the wall plane by moving that node onto the
 * side, and the slopes on either side grow to meet it.
 */
export interface SkeletonPlanOptions {
  gables: boolean;
  /** Only ridge ends at least this high (fraction of the top) become gables: no gablets on small jogs. Default 0.35. */
  minGableLevel?: number;
  /** Only nodes whose foot lies this far inside the side (fraction of its length) become gables. */
  gableMargin?: number;
  /** Skeleton nodes closer than this (metres) are one node: float32 output splits coincident events. */
  mergeDistance?: number;
}

export interface SkeletonPlan {
  plan: RoofPlan;
  /** Sides turned into gables (ring vertex index of each side's start). */
  gableSides: number[];
}

export function planFromSkeleton(footprint: Footprint, skeleton: FootprintSkeleton, options: SkeletonPlanOptions): SkeletonPlan | string {
  const plan = emptyPlan(footprint);
  const n0 = plan.ringVertexCount;
  if (skeleton.ringVertexCount !== n0) return 'the skeleton does not match the footprint';
  const merged = mergeCloseNodes(skeleton, options.mergeDistance ?? 0.005);
  for (let k = 0; k < merged.x.length; k++) addPlanVertex(plan, merged.x[k], merged.y[k], merged.t[k] / skeleton.maxT);

  const ringOf = new Int32Array(n0);
  plan.rings.forEach((r, index) => {
    for (let i = 0; i < r.length; i++) ringOf[r.start + i] = index;
  });
  const nextOnRing = (i: number) => {
    const r = plan.rings[ringOf[i]];
    return r.start + ((i - r.start + 1) % r.length);
  };

  // Which face belongs to which side (keyed by the side's start vertex).
  const faces: number[][] = [];
  for (const f of skeleton.faces) {
    const face = dedupeCyclic(f.map((v) => (v < n0 ? v : n0 + merged.index[v - n0])));
    if (face.length < 3) return 'a skeleton face collapsed';
    if (!polygonIsSimple(face, plan.x, plan.y) || !(polygonArea2(face, plan.x, plan.y) > 0)) return 'a skeleton face is not a simple polygon';
    faces.push(face);
  }
  const sideFace = new Int32Array(n0).fill(-1);
  for (let f = 0; f < faces.length; f++) {
    const ringVertices = faces[f].filter((v) => v < n0);
    if (ringVertices.length !== 2) return 'a skeleton face does not sit on one footprint side';
    const [u, v] = ringVertices;
    const start = nextOnRing(u) === v ? u : nextOnRing(v) === u ? v : -1;
    if (start < 0 || sideFace[start] >= 0) return 'a skeleton face does not sit on one footprint side';
    sideFace[start] = f;
  }

  const removed = new Uint8Array(faces.length);
  const gableSides: number[] = [];
  if (options.gables) {
    const minLevel = options.minGableLevel ?? 0.35;
    const margin = options.gableMargin ?? 0.1;
    const facesOfNode = new Map<number, number[]>();
    faces.forEach((face, f) => {
      for (const v of face)
        if (v >= n0) {
          const list = facesOfNode.get(v) ?? [];
          list.push(f);
          facesOfNode.set(v, list);
        }
    });
    const moved = new Set<number>();
    for (let a = 0; a < n0; a++) {
      const f = sideFace[a];
      const face = faces[f];
      if (face.length !== 3) continue;
      const node = face.find((v) => v >= n0);
      if (node === undefined || moved.has(node) || plan.s[node] < minLevel) continue;
      const b = nextOnRing(a);
      // Not the apex of a pyramid: every other face at this node reaches up to another node too.
      const around = facesOfNode.get(node) ?? [];
      if (!around.every((g) => g === f || faces[g].some((v) => v >= n0 && v !== node))) continue;
      const ax = plan.x[a],
        ay = plan.y[a],
        dx = plan.x[b] - ax,
        dy = plan.y[b] - ay;
      const lambda = ((plan.x[node] - ax) * dx + (plan.y[node] - ay) * dy) / (dx * dx + dy * dy);
      if (!(lambda >= margin && lambda <= 1 - margin)) continue;
      const oldX = plan.x[node],
        oldY = plan.y[node];
      plan.x[node] = ax + lambda * dx;
      plan.y[node] = ay + lambda * dy;
      const stillValid = around.every((g) => g === f || (polygonIsSimple(faces[g], plan.x, plan.y) && polygonArea2(faces[g], plan.x, plan.y) > 0));
      if (!stillValid) {
        plan.x[node] = oldX;
        plan.y[node] = oldY;
        continue;
      }
      moved.add(node);
      removed[f] = 1;
      gableSides.push(a);
    }
  }

  for (let f = 0; f < faces.length; f++) {
    if (removed[f]) continue;
    const face = faces[f];
    const coords: number[] = [];
    for (const v of face) coords.push(plan.x[v], plan.y[v]);
    const tri = triangulateRings(coords);
    if (!tri.ok) return 'a skeleton face could not be triangulated';
    for (const k of tri.triangles) plan.triangles.push(face[k]);
  }

  let expected = signedArea2(footprint.outer);
  for (const h of footprint.holes) expected += signedArea2(h);
  if (Math.abs(planArea2(plan) - expected) > 1e-6 * Math.abs(expected) + 1e-6) return 'the skeleton faces do not cover the footprint';
  return { plan, gableSides };
}

/** Clusters nodes closer than `distance` (grid hashing + union-find); a cluster sits at its mean, as high as its highest node. */
function mergeCloseNodes(skeleton: FootprintSkeleton, distance: number): { x: number[]; y: number[]; t: number[]; index: number[] } {
  const n = skeleton.nodeX.length;
  const parent = Array.from({ length: n }, (_, i) => i);
  const find = (i: number): number => {
    while (parent[i] !== i) i = parent[i] = parent[parent[i]];
    return i;
  };
  const grid = new Map<string, number[]>();
  const cell = (v: number) => Math.floor(v / distance);
  for (let i = 0; i < n; i++) {
    const cx = cell(skeleton.nodeX[i]),
      cy = cell(skeleton.nodeY[i]);
    for (let gx = cx - 1; gx <= cx + 1; gx++) {
      for (let gy = cy - 1; gy <= cy + 1; gy++) {
        for (const j of grid.get(`${gx},${gy}`) ?? []) {
          if (Math.hypot(skeleton.nodeX[i] - skeleton.nodeX[j], skeleton.nodeY[i] - skeleton.nodeY[j]) < distance) parent[find(i)] = find(j);
        }
      }
    }
    const key = `${cx},${cy}`;
    const list = grid.get(key);
    if (list) list.push(i);
    else grid.set(key, [i]);
  }
  const clusterOf = new Map<number, number>();
  const x: number[] = [],
    y: number[] = [],
    t: number[] = [],
    count: number[] = [];
  const index = new Array<number>(n);
  for (let i = 0; i < n; i++) {
    const root = find(i);
    let c = clusterOf.get(root);
    if (c === undefined) {
      c = x.length;
      clusterOf.set(root, c);
      x.push(0);
      y.push(0);
      t.push(0);
      count.push(0);
    }
    x[c] += skeleton.nodeX[i];
    y[c] += skeleton.nodeY[i];
    t[c] = Math.max(t[c], skeleton.nodeT[i]);
    count[c]++;
    index[i] = c;
  }
  for (let c = 0; c < x.length; c++) {
    x[c] /= count[c];
    y[c] /= count[c];
  }
  return { x, y, t, index };
}

/** Drops repeated consecutive entries of a cyclic list. */
function dedupeCyclic(list: number[]): number[] {
  const out = list.filter((v, i) => v !== list[(i + list.length - 1) % list.length]);
  return out.length === 0 ? list.slice(0, 1) : out;
}
