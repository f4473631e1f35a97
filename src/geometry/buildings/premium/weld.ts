/**
 * Welding the corners of separately given surfaces. City model surfaces that should meet are often
 * a fraction of a millimetre apart (rounding in the file, reprojection); points within `tolerance`
 * of an earlier kept point become that point, and every kept point is snapped to the millimetre
 * grid, the precision of the output and of the mesh checks (mesh-checks.ts compares vertices per
 * millimetre cell), so what is one vertex here is one vertex there.
 */

/** The weld tolerance and grid: one millimetre. */
export const WELD_TOLERANCE = 1e-3;

export interface Welded {
  /** Flat x, y, z of the distinct points, on the millimetre grid. */
  positions: number[];
  /** For every input point, the index of its welded point. */
  index: Int32Array;
}

export function weldPoints(points: ArrayLike<number>, tolerance = WELD_TOLERANCE): Welded {
  const count = points.length / 3;
  const index = new Int32Array(count);
  // cells by a 32-bit hash of their indices: a collision only adds candidates, whose distance is checked anyway
  const cells = new Map<number, number[]>();
  const kept: number[] = [];
  const key = cellHash;
  const tol2 = tolerance * tolerance;
  for (let p = 0; p < count; p++) {
    const x = points[3 * p],
      y = points[3 * p + 1],
      z = points[3 * p + 2];
    const ci = Math.floor(x / tolerance),
      cj = Math.floor(y / tolerance),
      ck = Math.floor(z / tolerance);
    let found = -1;
    let best = Infinity;
    for (let di = -1; di <= 1; di++)
      for (let dj = -1; dj <= 1; dj++)
        for (let dk = -1; dk <= 1; dk++) {
          for (const q of cells.get(key(ci + di, cj + dj, ck + dk)) ?? []) {
            const d2 = (kept[3 * q] - x) ** 2 + (kept[3 * q + 1] - y) ** 2 + (kept[3 * q + 2] - z) ** 2;
            if (d2 <= tol2 && d2 < best) {
              best = d2;
              found = q;
            }
          }
        }
    if (found < 0) {
      found = kept.length / 3;
      kept.push(x, y, z);
      const k = key(ci, cj, ck);
      const list = cells.get(k);
      if (list) list.push(found);
      else cells.set(k, [found]);
    }
    index[p] = found;
  }
  // snap to the millimetre grid; kept points that land in one cell are one point
  const positions: number[] = [];
  const byCell = new Map<string, number>();
  const gridKey = (i: number, j: number, k: number) => `${i},${j},${k}`;
  const snapped = new Int32Array(kept.length / 3);
  for (let q = 0; q < kept.length / 3; q++) {
    const sx = Math.round(kept[3 * q] * 1000),
      sy = Math.round(kept[3 * q + 1] * 1000),
      sz = Math.round(kept[3 * q + 2] * 1000);
    const k = gridKey(sx, sy, sz);
    let at = byCell.get(k);
    if (at === undefined) {
      at = positions.length / 3;
      byCell.set(k, at);
      positions.push(sx / 1000, sy / 1000, sz / 1000);
    }
    snapped[q] = at;
  }
  for (let p = 0; p < count; p++) index[p] = snapped[index[p]];
  return { positions, index };
}

function cellHash(i: number, j: number, k: number): number {
  let h = Math.imul(i | 0, 0x9e3779b1);
  h = Math.imul(h ^ (j | 0), 0x85ebca77);
  h = Math.imul(h ^ (k | 0), 0xc2b2ae3d);
  return (h ^ (h >>> 16)) | 0;
}
