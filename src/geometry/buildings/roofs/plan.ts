import type { Footprint } from '../../types.ts';
import { triangulateRings } from '../../triangulate/index.ts';

/**
 * A roof seen from above: the footprint cut into counter-clockwise triangles whose vertices carry a
 * scalar `s` (0 at the eaves … 1 at the top, or across the ridge for one-ridge roofs). A profile
 * later turns `s` into height, so one plan serves many roof shapes.
 *
 * The first `ringVertexCount` vertices are the footprint's ring vertices in ring order (outer ring,
 * then holes) at their exact coordinates; the roof's eaves are attached to them.
 */
export interface RoofPlan {
  x: number[];
  y: number[];
  s: number[];
  ringVertexCount: number;
  /** Where each ring starts among the first `ringVertexCount` vertices, and its length. */
  rings: { start: number; length: number }[];
  triangles: number[];
}

/** A plan with only the footprint's ring vertices, no triangles yet. */
export function emptyPlan(footprint: Footprint): RoofPlan {
  const x: number[] = [],
    y: number[] = [];
  const rings: RoofPlan['rings'] = [];
  for (const ring of [footprint.outer, ...footprint.holes]) {
    rings.push({ start: x.length, length: ring.length / 2 });
    for (let i = 0; i < ring.length; i += 2) {
      x.push(ring[i]);
      y.push(ring[i + 1]);
    }
  }
  return { x, y, s: new Array(x.length).fill(0), ringVertexCount: x.length, rings, triangles: [] };
}

/** Adds a vertex and returns its index. */
export function addPlanVertex(plan: RoofPlan, x: number, y: number, s: number): number {
  plan.x.push(x);
  plan.y.push(y);
  plan.s.push(s);
  return plan.x.length - 1;
}

/**
 * The footprint triangulated as it is, with `s` given per point (one-ridge, skillion and flat
 * roofs). Null when the footprint cannot be triangulated exactly (e.g. it crosses itself).
 */
export function planFromFootprint(footprint: Footprint, sAt: (x: number, y: number) => number): RoofPlan | null {
  const plan = emptyPlan(footprint);
  const coords: number[] = [];
  for (let i = 0; i < plan.ringVertexCount; i++) coords.push(plan.x[i], plan.y[i]);
  const tri = triangulateRings(
    coords,
    plan.rings.slice(1).map((r) => r.start),
  );
  if (!tri.ok) return null;
  plan.triangles = tri.triangles;
  for (let i = 0; i < plan.ringVertexCount; i++) plan.s[i] = sAt(plan.x[i], plan.y[i]);
  return plan;
}

/**
 * A fan from `apex` to every side of a hole-free footprint: the apex has s = 1, the eaves s = 0.
 * Valid only when the apex sees every side (it lies in the footprint's kernel).
 */
export function planFromFan(footprint: Footprint, apexX: number, apexY: number): RoofPlan {
  const plan = emptyPlan({ outer: footprint.outer, holes: [] });
  const n = plan.ringVertexCount;
  const apex = addPlanVertex(plan, apexX, apexY, 1);
  for (let i = 0; i < n; i++) plan.triangles.push(i, (i + 1) % n, apex);
  return plan;
}

/** Sum of twice the triangles' signed areas. */
export function planArea2(plan: RoofPlan): number {
  let sum = 0;
  const { x, y, triangles: t } = plan;
  for (let k = 0; k < t.length; k += 3) {
    const a = t[k],
      b = t[k + 1],
      c = t[k + 2];
    sum += (x[b] - x[a]) * (y[c] - y[a]) - (y[b] - y[a]) * (x[c] - x[a]);
  }
  return sum;
}
