import { windowRadius, type CanopyDetectOptions, type CanopyGrid } from './types.ts';

/** A treetop candidate: a plateau of one or more cells of equal height, each the highest in its window. */
export interface TopCandidate {
  /** Centroid of the plateau's cells, or the single cell refined by a parabola through its neighbours. */
  col: number;
  row: number;
  /** The same position in lattice columns and rows, computed from whole lattice indices so that every window gives the same bits. */
  latticeCol: number;
  latticeRow: number;
  /** Height at the refined position (reported). */
  height: number;
  /** Height of the top's cell as measured: what tops are ranked by (min spacing, crowns). */
  cellHeight: number;
  /** The plateau cell nearest its centroid (where the crown grows from), as a grid index. */
  seed: number;
  /** Lattice index of the plateau's first cell in lattice order (ties and identity). */
  key: number;
}

/**
 * Disc offsets sorted by distance, so a cell is usually refuted by its nearest neighbours first;
 * `dist2[k]` is the squared distance in cells of offset k.
 */
function discOffsets(maxRadiusCells: number): { dc: Int32Array; dr: Int32Array; dist2: Float64Array } {
  const R = Math.ceil(maxRadiusCells);
  const list: [number, number, number][] = [];
  for (let dr = -R; dr <= R; dr++)
    for (let dc = -R; dc <= R; dc++) {
      const d2 = dc * dc + dr * dr;
      if (d2 > 0 && d2 <= maxRadiusCells * maxRadiusCells) list.push([dc, dr, d2]);
    }
  list.sort((a, b) => a[2] - b[2] || a[1] - b[1] || a[0] - b[0]);
  return { dc: Int32Array.from(list, (e) => e[0]), dr: Int32Array.from(list, (e) => e[1]), dist2: Float64Array.from(list, (e) => e[2]) };
}

/**
 * The variable window filter (Popescu & Wynne 2004, as lidR's `lmf` with a circular window): a
 * cell of height h ≥ minHeight is a local maximum when no cell within radius
 * windowSlope·h + windowIntercept (metres, boundary included; never less than the 8 neighbours)
 * is higher. Touching cells of equal height (8-connected) form a plateau, which gives one
 * candidate when all its cells are maxima — where lidR would report every cell of it.
 */
export function localMaxima(grid: CanopyGrid, o: CanopyDetectOptions): TopCandidate[] {
  const { data, width: w, height: h, cellSize } = grid;
  const col0 = grid.col0 ?? 0,
    row0 = grid.row0 ?? 0;
  const maxR = Math.max(windowRadius(o.maxTreeHeight, o) / cellSize, Math.SQRT2);
  const { dc, dr, dist2 } = discOffsets(maxR);
  const isMax = new Uint8Array(w * h);
  for (let r = 0; r < h; r++) {
    for (let c = 0; c < w; c++) {
      const i = r * w + c;
      const v = data[i];
      if (!(v >= o.minHeight)) continue; // NaN too
      // never less than the 8 neighbours: Popescu & Wynne's smallest window is 3 × 3 cells
      const rc = Math.max(windowRadius(v, o) / cellSize, Math.SQRT2),
        rc2 = rc * rc;
      let top = 1;
      for (let k = 0; k < dist2.length && dist2[k] <= rc2; k++) {
        const cc = c + dc[k],
          rr = r + dr[k];
        if (cc < 0 || rr < 0 || cc >= w || rr >= h) continue;
        if (data[rr * w + cc] > v) {
          top = 0;
          break;
        }
      }
      isMax[i] = top;
    }
  }
  return plateaus(grid, isMax, col0, row0);
}

/**
 * Groups touching cells of equal height into plateaus. A plateau is a top only when every cell of
 * it is a window maximum: the terrace of a quantised crown (a ring of equal height round the top)
 * has cells that see the top, so it is no top, although its outer cells see nothing higher.
 */
function plateaus(grid: CanopyGrid, isMax: Uint8Array, col0: number, row0: number): TopCandidate[] {
  const { data, width: w, height: h } = grid;
  const VISITED = 2;
  const out: TopCandidate[] = [];
  const stack: number[] = [];
  const cells: number[] = [];
  const seen = new Uint8Array(w * h);
  for (let start = 0; start < isMax.length; start++) {
    if (isMax[start] !== 1 || seen[start]) continue;
    const v = data[start];
    seen[start] = VISITED;
    stack.push(start);
    cells.length = 0;
    let allMax = true;
    while (stack.length) {
      const i = stack.pop()!;
      cells.push(i);
      if (isMax[i] !== 1) allMax = false;
      const c = i % w,
        r = (i - c) / w;
      for (let nr = Math.max(0, r - 1); nr <= Math.min(h - 1, r + 1); nr++) {
        for (let nc = Math.max(0, c - 1); nc <= Math.min(w - 1, c + 1); nc++) {
          const j = nr * w + nc;
          if (!seen[j] && data[j] === v) {
            seen[j] = VISITED;
            stack.push(j);
          }
        }
      }
    }
    if (!allMax) continue;
    out.push(cells.length === 1 ? single(grid, start, col0, row0) : plateau(grid, cells, col0, row0));
  }
  return out;
}

/** A one-cell top, moved to the vertex of the parabola through it and its neighbours in each axis (at most half a cell). */
function single(grid: CanopyGrid, i: number, col0: number, row0: number): TopCandidate {
  const { data, width: w, height: h } = grid;
  const c = i % w,
    r = (i - c) / w;
  const v = data[i];
  const [oc, gc] = vertex(c > 0 ? data[i - 1] : NaN, v, c < w - 1 ? data[i + 1] : NaN);
  const [or, gr] = vertex(r > 0 ? data[i - w] : NaN, v, r < h - 1 ? data[i + w] : NaN);
  return {
    col: c + oc,
    row: r + or,
    latticeCol: c + col0 + oc,
    latticeRow: r + row0 + or,
    height: v + gc + gr,
    cellHeight: v,
    seed: i,
    key: lattice(c, r, col0, row0),
  };
}

/**
 * Offset and height gain of the vertex of the parabola through (−1, a), (0, b), (1, c): a top
 * between cell centres. None when a side is missing (edge, no data) or the vertex would leave
 * the cell — then the cell's own centre and height stand.
 */
function vertex(a: number, b: number, c: number): [number, number] {
  const curv = a - 2 * b + c;
  if (!(curv < 0)) return [0, 0];
  const t = (a - c) / (2 * curv);
  if (!(Math.abs(t) <= 0.5)) return [0, 0];
  return [t, -0.25 * (a - c) * t];
}

function plateau(grid: CanopyGrid, cells: number[], col0: number, row0: number): TopCandidate {
  const w = grid.width;
  let sc = 0,
    sr = 0,
    first = Infinity;
  for (const i of cells) {
    const c = i % w,
      r = (i - c) / w;
    sc += c + col0;
    sr += r + row0; // whole lattice indices: the sum is exact in every window
    first = Math.min(first, lattice(c, r, col0, row0));
  }
  const lc = sc / cells.length,
    lr = sr / cells.length;
  const mc = lc - col0,
    mr = lr - row0;
  let seed = cells[0],
    best = Infinity;
  for (const i of cells) {
    const c = i % w,
      r = (i - c) / w;
    const d = (c - mc) ** 2 + (r - mr) ** 2;
    if (d < best || (d === best && i < seed)) {
      best = d;
      seed = i;
    }
  }
  return { col: mc, row: mr, latticeCol: lc, latticeRow: lr, height: grid.data[seed], cellHeight: grid.data[seed], seed, key: first };
}

/** Lattice order of cell (c, r): rows of 2^26 columns, exact in a double for any real raster. */
export function lattice(c: number, r: number, col0: number, row0: number): number {
  return (r + row0) * 67_108_864 + (c + col0);
}
