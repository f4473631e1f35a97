import type { BBox, IndexedMesh } from '../types.ts';
import { type CropPolygon, edgeMeetsBox, insidePolygon, nearestBoundaryPoint } from './crop-polygon.ts';
import { flatBounds } from '../ring.ts';

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
  let touched = new Uint8Array(P.length / 3);
  // the polygon edge line each vertex lies on (index into `lines`), -1 none: snapping keeps it there
  let onLine = new Int32Array(P.length / 3).fill(-1);
  let changed = false;
  const box = meshBox(mesh.positions);

  const addVertex = (x: number, y: number, z: number, k: number): number => {
    if (3 * (V + 1) > P.length) {
      const next = new Float64Array(P.length * 2);
      next.set(P);
      P = next;
      const d = new Float64Array(P.length / 3);
      d.set(dist);
      dist = d;
      const s = new Int32Array(P.length / 3).fill(-1);
      s.set(stamp);
      stamp = s;
      const m = new Uint8Array(P.length / 3);
      m.set(touched);
      touched = m;
      const l = new Int32Array(P.length / 3).fill(-1);
      l.set(onLine);
      onLine = l;
    }
    P[3 * V] = x;
    P[3 * V + 1] = y;
    P[3 * V + 2] = z;
    dist[V] = 0;
    stamp[V] = k;
    touched[V] = 1;
    onLine[V] = k >= firstEdgeLine ? k : -1;
    return V++;
  };
  const addTriangle = (a: number, b: number, c: number): void => {
    if (3 * (tc + 1) > T.length) {
      const next = new Uint32Array(T.length * 2);
      next.set(T);
      T = next;
    }
    T[3 * tc] = a;
    T[3 * tc + 1] = b;
    T[3 * tc + 2] = c;
    tc++;
  };

  const { lines, firstEdgeLine } = cuttingLines(poly, box, snap, options.solid);
  for (let k = 0; k < lines.length / 3; k++) {
    const nx = lines[3 * k],
      ny = lines[3 * k + 1],
      c = lines[3 * k + 2];
    const cache = new Map<number, number>();
    const d = (v: number): number => {
      if (stamp[v] === k) return dist[v];
      let dv = nx * P[3 * v] + ny * P[3 * v + 1] - c;
      if (dv !== 0 && Math.abs(dv) < snap) {
        // onto this line: along the edge line it already lies on when the two cross (it then lies
        // on both: a corner stays a corner), else straight across
        const a = onLine[v];
        const ax = a >= 0 ? -lines[3 * a + 1] : 0,
          ay = a >= 0 ? lines[3 * a] : 0;
        const den = nx * ax + ny * ay;
        const along = a >= 0 && Math.abs(den) > 0.05 ? -dv / den : NaN;
        if (Math.abs(along) <= 4 * snap) {
          P[3 * v] += along * ax;
          P[3 * v + 1] += along * ay;
        } else {
          P[3 * v] -= dv * nx;
          P[3 * v + 1] -= dv * ny;
        }
        if (k >= firstEdgeLine) onLine[v] = k;
        dv = 0;
        touched[v] = 1;
        changed = true;
      }
      stamp[v] = k;
      dist[v] = dv;
      return dv;
    };
    const splitEdge = (u: number, v: number): number => {
      const key = u < v ? u * KEY + v : v * KEY + u;
      const known = cache.get(key);
      if (known !== undefined) return known;
      // endpoints in coordinate order: the same point whichever triangle (or tile) asks
      if (lexLess(P, v, u)) {
        const w = u;
        u = v;
        v = w;
      }
      const du = dist[u],
        dv = dist[v],
        t = du / (du - dv);
      const m = addVertex(
        P[3 * u] + t * (P[3 * v] - P[3 * u]),
        P[3 * u + 1] + t * (P[3 * v + 1] - P[3 * u + 1]),
        P[3 * u + 2] + t * (P[3 * v + 2] - P[3 * u + 2]),
        k,
      );
      cache.set(key, m);
      return m;
    };
    const count = tc;
    for (let t = 0; t < count; t++) {
      let a = T[3 * t],
        b = T[3 * t + 1],
        cc = T[3 * t + 2];
      let da = Math.sign(d(a)),
        db = Math.sign(d(b)),
        dc = Math.sign(d(cc));
      if (!((da > 0 || db > 0 || dc > 0) && (da < 0 || db < 0 || dc < 0))) continue;
      changed = true;
      // rotate so that `a` is the odd one: the vertex on the line, or alone on its side
      for (let r = 0; r < 3; r++) {
        const odd = da === 0 || (db !== 0 && dc !== 0 && db === dc);
        if (odd) break;
        const w = a;
        a = b;
        b = cc;
        cc = w;
        const s = da;
        da = db;
        db = dc;
        dc = s;
      }
      if (da === 0) {
        const m = splitEdge(b, cc);
        T[3 * t] = a;
        T[3 * t + 1] = b;
        T[3 * t + 2] = m;
        addTriangle(a, m, cc);
      } else {
        const m1 = splitEdge(a, b),
          m2 = splitEdge(a, cc);
        T[3 * t] = a;
        T[3 * t + 1] = m1;
        T[3 * t + 2] = m2;
        addTriangle(m1, b, cc);
        addTriangle(m1, cc, m2);
      }
    }
  }

  const inside = new Uint8Array(tc);
  const lean = snap / 2;
  for (let t = 0; t < tc; t++) {
    const a = 3 * T[3 * t],
      b = 3 * T[3 * t + 1],
      c = 3 * T[3 * t + 2];
    let x = (P[a] + P[b] + P[c]) / 3,
      y = (P[a + 1] + P[b + 1] + P[c + 1]) / 3;
    if (options.solid) {
      // a wall lying on a cutting line: test a point just inside its solid (against its normal)
      const ux = P[b] - P[a],
        uy = P[b + 1] - P[a + 1],
        uz = P[b + 2] - P[a + 2];
      const vx = P[c] - P[a],
        vy = P[c + 1] - P[a + 1],
        vz = P[c + 2] - P[a + 2];
      const nx = uy * vz - uz * vy,
        ny = uz * vx - ux * vz,
        nz = ux * vy - uy * vx;
      const h = Math.hypot(nx, ny);
      if (h > 0 && Math.abs(nz) < 1e-9 * h) {
        x -= (nx / h) * lean;
        y -= (ny / h) * lean;
      }
    }
    inside[t] = insidePolygon(poly, x, y) ? 1 : 0;
  }
  // a vertex snapped across onto a near-parallel line leaves the one before by up to `snap`, which
  // can be outside: kept vertices that are go onto the nearest boundary point
  const kept = new Uint8Array(V);
  for (let t = 0; t < tc; t++)
    if (inside[t]) {
      kept[T[3 * t]] = 1;
      kept[T[3 * t + 1]] = 1;
      kept[T[3 * t + 2]] = 1;
    }
  for (let v = 0; v < V; v++) {
    if (!kept[v] || !touched[v] || insidePolygon(poly, P[3 * v], P[3 * v + 1])) continue;
    const [qx, qy] = nearestBoundaryPoint(poly, P[3 * v], P[3 * v + 1]);
    if (Math.hypot(qx - P[3 * v], qy - P[3 * v + 1]) < 2 * snap) {
      P[3 * v] = qx;
      P[3 * v + 1] = qy;
    }
  }
  return { positions: P, vertexCount: V, indices: T, triangleCount: tc, inside, changed };
}

/**
 * The lines to split along, as (nx, ny, c) with n·p = c.
 *
 * Solids: first one through each polygon corner near the mesh, across the corner (perpendicular
 * to its bisector), then the line of every edge whose segment meets the mesh's box. The corner
 * lines put a vertex at every corner on the cut edges, so no cut edge runs past a corner onto the
 * next polygon edge (near-collinear corners, where the two edge lines lie within `snap` of each
 * other for metres, would otherwise leave such edges) and the caps can be told apart.
 *
 * Open surfaces (terrain tiles): no caps, so no corner lines; instead every edge line that crosses
 * the box, whether its segment does or not. Then two tiles split their shared seam by the very
 * same lines (a line crossing the seam crosses both boxes), so the seam gets the same vertices on
 * both sides: no T-junction between tiles.
 */
function cuttingLines(poly: CropPolygon, box: BBox, snap: number, solid: boolean): { lines: number[]; firstEdgeLine: number } {
  const e = poly.edges,
    out: number[] = [];
  for (let k = 0; solid && k < poly.n; k++) {
    const x = poly.ring[2 * k],
      y = poly.ring[2 * k + 1];
    if (x < box.minX - snap || x > box.maxX + snap || y < box.minY - snap || y > box.maxY + snap) continue;
    const prev = 8 * ((k + poly.n - 1) % poly.n),
      next = 8 * k;
    // bisector direction b = sum of the unit directions; the corner line runs along the sum of the normals
    let bx = e[prev + 4] + e[next + 4],
      by = e[prev + 5] + e[next + 5];
    let len = Math.hypot(bx, by);
    if (len < 1e-9) {
      bx = e[next + 4];
      by = e[next + 5];
      len = 1;
    }
    bx /= len;
    by /= len;
    out.push(bx, by, bx * x + by * y);
  }
  const firstEdgeLine = out.length / 3;
  for (let k = 0; k < poly.n; k++) {
    const o = 8 * k,
      nx = e[o + 5],
      ny = -e[o + 4],
      c = e[o + 7];
    if (solid ? !edgeMeetsBox(poly, k, box, snap) : !lineCrossesBox(nx, ny, c, box, snap)) continue;
    out.push(nx, ny, c);
  }
  return { lines: out, firstEdgeLine };
}

/** Whether the line n·p = c passes within `pad` of the box. */
function lineCrossesBox(nx: number, ny: number, c: number, box: BBox, pad: number): boolean {
  const lo = nx * (nx >= 0 ? box.minX : box.maxX) + ny * (ny >= 0 ? box.minY : box.maxY) - c;
  const hi = nx * (nx >= 0 ? box.maxX : box.minX) + ny * (ny >= 0 ? box.maxY : box.minY) - c;
  return lo <= pad && hi >= -pad;
}

function lexLess(P: Float64Array, u: number, v: number): boolean {
  for (let i = 0; i < 3; i++) if (P[3 * u + i] !== P[3 * v + i]) return P[3 * u + i] < P[3 * v + i];
  return u < v;
}

/** Plan box of flat xyz positions. */
export function meshBox(positions: ArrayLike<number>): BBox {
  return flatBounds(positions, 3);
}
