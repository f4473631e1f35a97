import type { RoofPlan } from './plan.ts';
import { addPlanVertex } from './plan.ts';

/**
 * Cuts every plan triangle along the lines where `s` crosses a profile breakpoint, so that the
 * profile is linear on every resulting triangle (each one becomes a flat facet). `s` is linear on
 * each triangle, so every cut is straight and every piece convex.
 *
 * A cut point is made once per (triangle side, level) and shared by both triangles on that side,
 * so the refined plan has no T-junctions.
 */
export function refinePlan(plan: RoofPlan, levels: readonly number[], metresPerUnit: number, snapDistance = 0.002): RoofPlan {
  const inner = levels.slice().sort((a, b) => a - b);
  const out: RoofPlan = {
    x: plan.x.slice(),
    y: plan.y.slice(),
    s: plan.s.slice(),
    ringVertexCount: plan.ringVertexCount,
    rings: plan.rings,
    triangles: [],
  };
  // Vertices within a few millimetres of a level sit on it: no sliver facets or micro gables.
  if (metresPerUnit > 0) {
    for (let i = 0; i < out.s.length; i++) {
      for (const level of inner) {
        if (out.s[i] !== level && Math.abs(out.s[i] - level) * metresPerUnit < snapDistance) {
          out.s[i] = level;
          break;
        }
      }
    }
  }
  const caches = inner.map(() => new Map<number, number>());
  const cutPoint = (u: number, v: number, k: number): number => {
    const lo = Math.min(u, v),
      hi = Math.max(u, v);
    const key = lo * 4194304 + hi;
    let id = caches[k].get(key);
    if (id === undefined) {
      const level = inner[k];
      const t = (level - out.s[lo]) / (out.s[hi] - out.s[lo]);
      id = addPlanVertex(out, out.x[lo] + t * (out.x[hi] - out.x[lo]), out.y[lo] + t * (out.y[hi] - out.y[lo]), level);
      caches[k].set(key, id);
    }
    return id;
  };

  const t = plan.triangles;
  for (let n = 0; n < t.length; n += 3) {
    let poly = [t[n], t[n + 1], t[n + 2]];
    for (let k = 0; k < inner.length && poly.length >= 3; k++) {
      const level = inner[k];
      let lo = Infinity,
        hi = -Infinity;
      for (const v of poly) {
        lo = Math.min(lo, out.s[v]);
        hi = Math.max(hi, out.s[v]);
      }
      if (!(lo < level && level < hi)) continue;
      const below: number[] = [],
        above: number[] = [];
      for (let i = 0; i < poly.length; i++) {
        const u = poly[i],
          v = poly[(i + 1) % poly.length];
        const su = out.s[u],
          sv = out.s[v];
        if (su <= level) below.push(u);
        if (su >= level) above.push(u);
        if ((su < level && sv > level) || (su > level && sv < level)) {
          const p = cutPoint(u, v, k);
          below.push(p);
          above.push(p);
        }
      }
      fan(below, out.triangles);
      poly = above;
    }
    fan(poly, out.triangles);
  }
  return out;
}

/** Fan triangulation of a convex polygon. */
function fan(poly: number[], out: number[]): void {
  for (let i = 1; i + 1 < poly.length; i++) out.push(poly[0], poly[i], poly[i + 1]);
}
