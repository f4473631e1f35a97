/**
 * A format-agnostic z-fighting detector over a triangle soup (Z up, metres; 9 numbers per
 * triangle, as any export reader can produce). Two upward-facing surfaces z-fight where they
 * overlap in plan at (nearly) the same height: a renderer then shows either, flickering. The
 * detector samples each upward triangle at its centroid and halfway from there to each corner, and
 * looks for another upward triangle that holds such a point well inside it (more than `edgeMargin` from its edges, so neighbours
 * sharing an edge or a vertex never count) with its plane within `heightTolerance` there.
 */

export interface ZFightingOptions {
  /** A sample must lie this far inside the other triangle (metres). */
  edgeMargin: number;
  /** Heights this close at the sample z-fight (metres). */
  heightTolerance: number;
}

export const Z_FIGHTING_DEFAULTS: ZFightingOptions = { edgeMargin: 0.01, heightTolerance: 0.02 };

/** One sample where two upward triangles lie on each other. */
export interface ZFightingSpot {
  /** The sample point (in the sampled triangle). */
  at: [number, number, number];
  /** Indices of the two triangles in the soup. */
  sampled: number;
  other: number;
  /** Height of the other triangle's plane minus the sample's height there. */
  dz: number;
}

export interface ZFightingReport {
  triangles: number;
  /** Triangles whose normal points up (n.z > 0.5 |n|): the only ones compared. */
  upward: number;
  /** One per sampled triangle and other triangle it lies on. */
  spots: ZFightingSpot[];
}

const CELL = 8; // metres: the plan grid that finds the candidates of a sample

/** Whether triangle `t` of `soup` faces up: its normal's z exceeds half its length. */
export function facesUp(soup: ArrayLike<number>, t: number): boolean {
  const o = t * 9;
  const ux = soup[o + 3] - soup[o],
    uy = soup[o + 4] - soup[o + 1],
    uz = soup[o + 5] - soup[o + 2];
  const vx = soup[o + 6] - soup[o],
    vy = soup[o + 7] - soup[o + 1],
    vz = soup[o + 8] - soup[o + 2];
  const nx = uy * vz - uz * vy,
    ny = uz * vx - ux * vz,
    nz = ux * vy - uy * vx;
  return nz > 0.5 * Math.hypot(nx, ny, nz);
}

/** The z-fighting spots of a Z-up triangle soup (metres). */
export function findZFighting(soup: ArrayLike<number>, options: ZFightingOptions = Z_FIGHTING_DEFAULTS): ZFightingReport {
  const triangles = Math.floor(soup.length / 9);
  const up: number[] = [];
  for (let t = 0; t < triangles; t++) if (facesUp(soup, t)) up.push(t);
  const grid = new Map<string, number[]>();
  for (const t of up) {
    const o = t * 9;
    const [x0, x1] = [Math.min(soup[o], soup[o + 3], soup[o + 6]), Math.max(soup[o], soup[o + 3], soup[o + 6])];
    const [y0, y1] = [Math.min(soup[o + 1], soup[o + 4], soup[o + 7]), Math.max(soup[o + 1], soup[o + 4], soup[o + 7])];
    for (let i = Math.floor(x0 / CELL); i <= Math.floor(x1 / CELL); i++)
      for (let j = Math.floor(y0 / CELL); j <= Math.floor(y1 / CELL); j++) {
        const key = `${i},${j}`;
        const cell = grid.get(key);
        if (cell) cell.push(t);
        else grid.set(key, [t]);
      }
  }
  const spots: ZFightingSpot[] = [];
  for (const t of up) {
    const o = t * 9;
    const cx = (soup[o] + soup[o + 3] + soup[o + 6]) / 3,
      cy = (soup[o + 1] + soup[o + 4] + soup[o + 7]) / 3,
      cz = (soup[o + 2] + soup[o + 5] + soup[o + 8]) / 3;
    // The centroid, then halfway to each corner: one overlap whose edges happen to pass within
    // the margin of the centroid is still seen at another sample.
    const seen = new Set<number>([t]); // one spot per pair of triangles
    for (const k of [-1, 0, 3, 6]) {
      const x = k < 0 ? cx : (cx + soup[o + k]) / 2,
        y = k < 0 ? cy : (cy + soup[o + k + 1]) / 2,
        z = k < 0 ? cz : (cz + soup[o + k + 2]) / 2;
      for (const u of grid.get(`${Math.floor(x / CELL)},${Math.floor(y / CELL)}`) ?? []) {
        if (seen.has(u)) continue;
        const h = heightInside(soup, u, x, y, options.edgeMargin);
        if (h === null || Math.abs(h - z) > options.heightTolerance) continue;
        seen.add(u);
        spots.push({ at: [x, y, z], sampled: t, other: u, dz: h - z });
      }
    }
  }
  return { triangles, upward: up.length, spots };
}

/**
 * Height of triangle `u`'s plane at (x, y) when that point lies inside its plan more than
 * `margin` from every edge; null otherwise.
 */
function heightInside(soup: ArrayLike<number>, u: number, x: number, y: number, margin: number): number | null {
  const o = u * 9;
  const ax = soup[o],
    ay = soup[o + 1],
    bx = soup[o + 3],
    by = soup[o + 4],
    cx = soup[o + 6],
    cy = soup[o + 7];
  const area2 = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
  if (area2 === 0) return null;
  const sign = Math.sign(area2);
  // Signed distance of (x, y) to each edge, positive inside.
  const edges: [number, number, number, number][] = [
    [ax, ay, bx, by],
    [bx, by, cx, cy],
    [cx, cy, ax, ay],
  ];
  for (const [px, py, qx, qy] of edges) {
    const d = (sign * ((qx - px) * (y - py) - (qy - py) * (x - px))) / Math.hypot(qx - px, qy - py);
    if (!(d > margin)) return null;
  }
  // Barycentric weights of (x, y) give the plane's height there.
  const wb = ((x - ax) * (cy - ay) - (y - ay) * (cx - ax)) / area2,
    wc = ((bx - ax) * (y - ay) - (by - ay) * (x - ax)) / area2;
  return soup[o + 2] + wb * (soup[o + 5] - soup[o + 2]) + wc * (soup[o + 8] - soup[o + 2]);
}

/**
 * Triangles of `soup` that are triangles of `reference` (same three corners, in any order, each
 * within `tolerance` metres): how a format-agnostic soup tells, say, the terrain's triangles apart.
 */
export function trianglesOf(soup: ArrayLike<number>, reference: ArrayLike<number>, tolerance = 1e-3): Set<number> {
  const key = (x: number, y: number) => `${Math.floor(x / CELL)},${Math.floor(y / CELL)}`;
  const centroid = (s: ArrayLike<number>, t: number): [number, number] => [
    (s[9 * t] + s[9 * t + 3] + s[9 * t + 6]) / 3,
    (s[9 * t + 1] + s[9 * t + 4] + s[9 * t + 7]) / 3,
  ];
  const grid = new Map<string, number[]>();
  for (let r = 0; r < reference.length / 9; r++) {
    const [x, y] = centroid(reference, r);
    for (const dx of [-tolerance, tolerance])
      for (const dy of [-tolerance, tolerance]) {
        const cell = grid.get(key(x + dx, y + dy)) ?? [];
        if (!cell.includes(r)) cell.push(r);
        grid.set(key(x + dx, y + dy), cell);
      }
  }
  const near = (s: ArrayLike<number>, i: number, r: number) =>
    Math.abs(s[i] - reference[r]) <= tolerance && Math.abs(s[i + 1] - reference[r + 1]) <= tolerance && Math.abs(s[i + 2] - reference[r + 2]) <= tolerance;
  const out = new Set<number>();
  for (let t = 0; t < soup.length / 9; t++) {
    const [x, y] = centroid(soup, t);
    for (const r of grid.get(key(x, y)) ?? []) {
      if ([0, 3, 6].every((a) => [0, 3, 6].some((b) => near(soup, 9 * t + a, 9 * r + b)))) {
        out.add(t);
        break;
      }
    }
  }
  return out;
}
