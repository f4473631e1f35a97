import type { Footprint } from '../../types.ts';
import { MeshBuilder } from '../../mesh-builder.ts';
import type { RoofPlan } from './plan.ts';
import type { Profile } from './profiles.ts';
import { profileHeight } from './profiles.ts';
import { triangulateRings } from '../../triangulate/index.ts';

/**
 * Turns a refined plan into roof triangles: every plan triangle lifted to its vertices' heights,
 * plus the vertical wall pieces between the wall top and the roof wherever the roof meets a
 * footprint side above the wall top (gables, the high side of a skillion, a saltbox's raised eave).
 *
 * The roof's open boundary is exactly the footprint's rings at the wall top, so walls built along
 * the returned rings close the solid. The returned rings equal the footprint's, except where the
 * roof comes down to the wall top in the middle of a side: that point is inserted so the wall
 * there has a vertex too.
 */

/** Millimetre grid of the output; heights under half a millimetre are the wall top itself. */
function roundMm(v: number): number {
  return Math.round(v * 1000) / 1000;
}

/** Absolute height of every plan vertex: wall top plus the profile's share of the roof height. */
export function liftPlan(plan: RoofPlan, profile: Profile, wallTopZ: number, height: number): number[] {
  return plan.s.map((s) => {
    const h = roundMm(height * profileHeight(profile, s));
    return h > 0 ? wallTopZ + h : wallTopZ;
  });
}

export interface EmittedRoof {
  /** The rings the walls must follow (footprint rings plus any inserted eave points). */
  rings: Footprint;
  /** Highest roof point. */
  maxZ: number;
}

/** Reused across roofs: allocating a welder per roof cost more than the welding. */
const scratchWeld = new MeshBuilder();

/** Writes the roof into `mesh`; returns a reason instead (and writes nothing) when the plan does not close up. */
export function emitRoof(mesh: MeshBuilder, plan: RoofPlan, z: readonly number[], wallTopZ: number): EmittedRoof | string {
  const count = plan.x.length;
  const px = new Array<number>(count),
    py = new Array<number>(count);
  // Interior vertices go on the millimetre grid so that welding here matches a millimetre check.
  for (let i = 0; i < count; i++) {
    const ring = i < plan.ringVertexCount;
    px[i] = ring ? plan.x[i] : roundMm(plan.x[i]);
    py[i] = ring ? plan.y[i] : roundMm(plan.y[i]);
    if (!Number.isFinite(px[i]) || !Number.isFinite(py[i]) || !Number.isFinite(z[i])) return 'the roof has a non-finite vertex';
  }
  // Vertices at one 3D point are one vertex (as MeshBuilder will weld them).
  const canonical = new Int32Array(count);
  const weld = scratchWeld.reset();
  const firstOf = new Int32Array(count).fill(-1);
  for (let i = 0; i < count; i++) {
    const w = weld.vertex(px[i], py[i], z[i]);
    if (firstOf[w] < 0) firstOf[w] = i;
    canonical[i] = firstOf[w];
  }

  const triangles: number[] = [];
  const edges = new Map<number, number>();
  const t = plan.triangles;
  for (let k = 0; k < t.length; k += 3) {
    const a = canonical[t[k]],
      b = canonical[t[k + 1]],
      c = canonical[t[k + 2]];
    if (a === b || b === c || a === c) continue;
    triangles.push(a, b, c);
    const ab = a * count + b,
      bc = b * count + c,
      ca = c * count + a;
    if (edges.has(ab) || edges.has(bc) || edges.has(ca)) return 'the roof plan folds over itself';
    edges.set(ab, b).set(bc, c).set(ca, a);
  }
  const next = new Map<number, number>();
  for (const [key, v] of edges) {
    const u = Math.floor(key / count);
    if (edges.has(v * count + u)) continue;
    if (next.has(u)) return 'the roof plan pinches at a vertex';
    next.set(u, v);
  }

  const isRingVertex = new Uint8Array(count);
  for (let i = 0; i < plan.ringVertexCount; i++) isRingVertex[canonical[i]] = 1;
  const vertical: number[][] = []; // triangles as [x, y, z] corner triples, flattened per triangle
  const outRings: number[][] = [];
  for (const ring of plan.rings) {
    const out: number[] = [];
    for (let i = 0; i < ring.length; i++) {
      const a = ring.start + i,
        b = ring.start + ((i + 1) % ring.length);
      out.push(plan.x[a], plan.y[a]);
      const chain = [canonical[a]];
      let cur = canonical[a];
      const end = canonical[b];
      while (cur !== end) {
        const nxt = next.get(cur);
        if (nxt === undefined || (isRingVertex[nxt] && nxt !== end) || chain.length > count) return 'the roof does not follow the footprint';
        chain.push(nxt);
        cur = nxt;
      }
      const side = sideWalls(chain, plan.x[a], plan.y[a], plan.x[b], plan.y[b], px, py, z, wallTopZ);
      if (typeof side === 'string') return side;
      vertical.push(...side.triangles);
      for (const p of side.inserted) out.push(px[p], py[p]);
    }
    outRings.push(out);
  }

  // Mesh index per plan vertex, added on first use.
  const ids = new Int32Array(count).fill(-1);
  for (const i of triangles) if (ids[i] < 0) ids[i] = mesh.vertex(px[i], py[i], z[i]);
  let maxZ = wallTopZ;
  for (let k = 0; k < triangles.length; k += 3) {
    mesh.triangle(ids[triangles[k]], ids[triangles[k + 1]], ids[triangles[k + 2]]);
    maxZ = Math.max(maxZ, z[triangles[k]], z[triangles[k + 1]], z[triangles[k + 2]]);
  }
  for (const tri of vertical) {
    mesh.triangle(mesh.vertex(tri[0], tri[1], tri[2]), mesh.vertex(tri[3], tri[4], tri[5]), mesh.vertex(tri[6], tri[7], tri[8]));
  }
  return { rings: { outer: outRings[0], holes: outRings.slice(1) }, maxZ };
}

/**
 * The vertical pieces between the wall top and the roof along one footprint side (a→b), given the
 * roof vertices met along it. Points where the roof touches the wall top mid-side split it.
 */
function sideWalls(
  chain: number[],
  ax: number,
  ay: number,
  bx: number,
  by: number,
  px: number[],
  py: number[],
  z: readonly number[],
  wallTopZ: number,
): { triangles: number[][]; inserted: number[] } | string {
  const dx = bx - ax,
    dy = by - ay;
  const len = Math.hypot(dx, dy);
  const along = chain.map((p, k) => (k === 0 ? 0 : k === chain.length - 1 ? len : ((px[p] - ax) * dx + (py[p] - ay) * dy) / len));
  // Two roof points may share a spot on the millimetre grid (a steep stretch of a curved gable): a vertical step is fine.
  for (let k = 1; k < along.length; k++) if (!(along[k] >= along[k - 1])) return 'the roof edge runs back along a wall';
  const inserted: number[] = [];
  const triangles: number[][] = [];
  let from = 0;
  for (let k = 1; k < chain.length; k++) {
    const touches = z[chain[k]] === wallTopZ;
    if (k < chain.length - 1 && !touches) continue;
    if (k < chain.length - 1) inserted.push(chain[k]);
    const piece = chain.slice(from, k + 1);
    if (piece.some((p) => z[p] !== wallTopZ)) {
      // Polygon in (distance along the side, height): bottom left → bottom right → roof line back.
      const uv: number[] = [along[from], 0, along[k], 0];
      const corners: number[][] = [
        [px[piece[0]], py[piece[0]], wallTopZ],
        [px[piece[piece.length - 1]], py[piece[piece.length - 1]], wallTopZ],
      ];
      for (let m = piece.length - 1; m >= 0; m--) {
        const p = piece[m];
        if (z[p] === wallTopZ) continue;
        uv.push(along[from + m], z[p] - wallTopZ);
        corners.push([px[p], py[p], z[p]]);
      }
      const tri = triangulateRings(uv);
      if (!tri.ok) return 'a gable could not be triangulated';
      for (let n = 0; n < tri.triangles.length; n += 3) {
        triangles.push([...corners[tri.triangles[n]], ...corners[tri.triangles[n + 1]], ...corners[tri.triangles[n + 2]]]);
      }
    }
    from = k;
  }
  return { triangles, inserted };
}
