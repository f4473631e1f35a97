import type { BBox, IndexedMesh } from '../types.ts';
import { type CropPolygon, edgeMeetsBox, insidePolygon } from './crop-polygon.ts';

/**
 * A triangle mesh split along the polygon's edges: for every polygon edge that meets the mesh's box,
 * every triangle its whole line crosses is cut along that line (the whole line, not just the
 * segment: splitting only the triangles near the segment would split an edge for one triangle and
 * not for its neighbour, a T-junction). Each resulting triangle then lies wholly inside or wholly
 * outside the polygon and is classified by one point. Indexed and shared: an edge split for one triangle is
 * split at the same new vertex for its neighbour, so a closed mesh stays watertight and tile seams
 * of terrain get identical points (the split point is computed from the endpoints in coordinate
 * order, never index order).
 *
 * Vertices closer than `snap` to an edge's line are moved onto it instead of being split off, so no
 * sliver under `snap` is made and a cut lies exactly on the boundary.
 */
export interface SplitMesh {
  positions: Float64Array;
  vertexCount: number;
  /** Triangles after splitting (3 indices each), `triangleCount` of them. */
  indices: Uint32Array;
  triangleCount: number;
  /** 1 where the triangle lies inside the polygon. */
  inside: Uint8Array;
  /** Whether any triangle was split or any vertex moved. */
  changed: boolean;
}

export interface SplitOptions {
  /** Vertices this close to a cutting line move onto it (metres). */
  snap: number;
  /** A closed solid: vertical triangles on a cutting line are classified by the side their solid lies on. */
  solid: boolean;
}

const KEY = 67108864; // 2^26: edge keys u·KEY + v stay exact doubles

export function splitAlongPolygon(mesh: IndexedMesh, poly: CropPolygon, options: SplitOptions): SplitMesh {
  const { snap } = options;
  let P = new Float64Array(Math.max(mesh.positions.length * 2, 48));
  P.set(mesh.positions);
  let V = mesh.positions.length / 3;
  let T = new Uint32Array(Math.max(mesh.indices.length * 2, 48));
  T.set(mesh.indices);
  let tc = mesh.indices.length / 3;
  let dist = new Float64Array(P.length / 3);
  let stamp = new Int32Array(P.length / 3).fill(-1);
  let changed = false;
  const box = meshBox(mesh.positions);
  const e = poly.edges;

  const addVertex = (x: number, y: number, z: number, k: number): number => {
    if (3 * (V + 1) > P.length) {
      const next = new Float64Array(P.length * 2); next.set(P); P = next;
      const d = new Float64Array(P.length / 3); d.set(dist); dist = d;
      const s = new Int32Array(P.length / 3).fill(-1); s.set(stamp); stamp = s;
    }
    P[3 * V] = x; P[3 * V + 1] = y; P[3 * V + 2] = z;
    dist[V] = 0; stamp[V] = k;
    return V++;
  };
  const addTriangle = (a: number, b: number, c: number): void => {
    if (3 * (tc + 1) > T.length) { const next = new Uint32Array(T.length * 2); next.set(T); T = next; }
    T[3 * tc] = a; T[3 * tc + 1] = b; T[3 * tc + 2] = c;
    tc++;
  };

  for (let k = 0; k < poly.n; k++) {
    if (!edgeMeetsBox(poly, k, box, snap)) continue;
    const o = 8 * k;
    const nx = e[o + 5], ny = -e[o + 4], c = e[o + 7];
    const cache = new Map<number, number>();
    const d = (v: number): number => {
      if (stamp[v] === k) return dist[v];
      let dv = nx * P[3 * v] + ny * P[3 * v + 1] - c;
      if (dv !== 0 && Math.abs(dv) < snap) {
        P[3 * v] -= dv * nx; P[3 * v + 1] -= dv * ny;
        dv = 0;
        changed = true;
      }
      stamp[v] = k; dist[v] = dv;
      return dv;
    };
    const splitEdge = (u: number, v: number): number => {
      const key = u < v ? u * KEY + v : v * KEY + u;
      const known = cache.get(key);
      if (known !== undefined) return known;
      // endpoints in coordinate order: the same point whichever triangle (or tile) asks
      if (lexLess(P, v, u)) { const w = u; u = v; v = w; }
      const du = dist[u], dv = dist[v], t = du / (du - dv);
      const m = addVertex(P[3 * u] + t * (P[3 * v] - P[3 * u]), P[3 * u + 1] + t * (P[3 * v + 1] - P[3 * u + 1]), P[3 * u + 2] + t * (P[3 * v + 2] - P[3 * u + 2]), k);
      cache.set(key, m);
      return m;
    };
    const count = tc;
    for (let t = 0; t < count; t++) {
      let a = T[3 * t], b = T[3 * t + 1], cc = T[3 * t + 2];
      let da = Math.sign(d(a)), db = Math.sign(d(b)), dc = Math.sign(d(cc));
      if (!((da > 0 || db > 0 || dc > 0) && (da < 0 || db < 0 || dc < 0))) continue;
      changed = true;
      // rotate so that `a` is the odd one: the vertex on the line, or alone on its side
      for (let r = 0; r < 3; r++) {
        const odd = da === 0 || (db !== 0 && dc !== 0 && db === dc);
        if (odd) break;
        const w = a; a = b; b = cc; cc = w;
        const s = da; da = db; db = dc; dc = s;
      }
      if (da === 0) {
        const m = splitEdge(b, cc);
        T[3 * t] = a; T[3 * t + 1] = b; T[3 * t + 2] = m;
        addTriangle(a, m, cc);
      } else {
        const m1 = splitEdge(a, b), m2 = splitEdge(a, cc);
        T[3 * t] = a; T[3 * t + 1] = m1; T[3 * t + 2] = m2;
        addTriangle(m1, b, cc);
        addTriangle(m1, cc, m2);
      }
    }
  }

  const inside = new Uint8Array(tc);
  const lean = snap / 2;
  for (let t = 0; t < tc; t++) {
    const a = 3 * T[3 * t], b = 3 * T[3 * t + 1], c = 3 * T[3 * t + 2];
    let x = (P[a] + P[b] + P[c]) / 3, y = (P[a + 1] + P[b + 1] + P[c + 1]) / 3;
    if (options.solid) {
      // a wall lying on a cutting line: test a point just inside its solid (against its normal)
      const ux = P[b] - P[a], uy = P[b + 1] - P[a + 1], uz = P[b + 2] - P[a + 2];
      const vx = P[c] - P[a], vy = P[c + 1] - P[a + 1], vz = P[c + 2] - P[a + 2];
      const nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
      const h = Math.hypot(nx, ny);
      if (h > 0 && Math.abs(nz) < 1e-9 * h) { x -= (nx / h) * lean; y -= (ny / h) * lean; }
    }
    inside[t] = insidePolygon(poly, x, y) ? 1 : 0;
  }
  return { positions: P, vertexCount: V, indices: T, triangleCount: tc, inside, changed };
}

function lexLess(P: Float64Array, u: number, v: number): boolean {
  for (let i = 0; i < 3; i++) if (P[3 * u + i] !== P[3 * v + i]) return P[3 * u + i] < P[3 * v + i];
  return u < v;
}

/** Plan box of flat xyz positions. */
export function meshBox(positions: ArrayLike<number>): BBox {
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  for (let i = 0; i < positions.length; i += 3) {
    const x = positions[i], y = positions[i + 1];
    if (x < minX) minX = x;
    if (x > maxX) maxX = x;
    if (y < minY) minY = y;
    if (y > maxY) maxY = y;
  }
  return { minX, minY, maxX, maxY };
}
