import type { BBox, Ring } from '../geometry/types.ts';
import { pointInRing } from '../geometry/ring.ts';
import { segmentsIntersect } from '../geometry/segments.ts';

/** The grid fields this module needs (tiling.ts TileGrid). */
interface Grid {
  origin: { x: number; y: number };
  size: number;
  columns: number;
  rows: number;
}

/**
 * Cells of the grid that share at least one point with the closed polygon, as [i, j] pairs in
 * row-major order — without visiting every cell of the bounding box (a 4,000 km sliver has
 * millions). Cells along each edge are found from the edge's own column span and
 * confirmed exactly; between two boundary cells of a row lies a run of cells the boundary does not
 * touch, wholly inside or wholly outside, decided by one point. Work ∝ boundary cells × rows'
 * runs, not ∝ the box.
 */
export function touchedCells(grid: Grid, polygon: Ring): [number, number][] {
  const boundary = boundaryCells(grid, polygon);
  const byRow = new Map<number, number[]>();
  for (const key of boundary) {
    const j = Math.floor(key / grid.columns),
      i = key % grid.columns;
    let row = byRow.get(j);
    if (!row) byRow.set(j, (row = []));
    row.push(i);
  }
  const cells: [number, number][] = [];
  for (const j of [...byRow.keys()].sort((a, b) => a - b)) {
    const row = byRow.get(j)!.sort((a, b) => a - b);
    for (let k = 0; k < row.length; k++) {
      cells.push([row[k], j]);
      const next = row[k + 1];
      if (next === undefined || next === row[k] + 1) continue;
      // An untouched run between two boundary cells: inside or outside as a whole.
      const x = grid.origin.x + (row[k] + 1.5) * grid.size,
        y = grid.origin.y + (j + 0.5) * grid.size;
      if (pointInRing(x, y, polygon)) for (let i = row[k] + 1; i < next; i++) cells.push([i, j]);
    }
  }
  // Cells left of a row's first boundary cell or right of its last are outside: the grid's box is
  // the polygon's, so such a run reaches a side no interior point lies on.
  return cells;
}

/** Keys (j × columns + i) of the cells some edge of the polygon touches. */
function boundaryCells(grid: Grid, polygon: Ring): Set<number> {
  const { origin, size, columns, rows } = grid;
  const n = polygon.length / 2;
  const keys = new Set<number>();
  const slack = size * 1e-9; // candidates a hair wider; the exact test below decides
  const col = (x: number) => Math.min(columns - 1, Math.max(0, Math.floor((x - origin.x) / size)));
  const row = (y: number) => Math.min(rows - 1, Math.max(0, Math.floor((y - origin.y) / size)));
  for (let k = 0; k < n; k++) {
    const l = (k + 1) % n;
    const ax = polygon[2 * k],
      ay = polygon[2 * k + 1],
      bx = polygon[2 * l],
      by = polygon[2 * l + 1];
    const i0 = col(Math.min(ax, bx) - slack),
      i1 = col(Math.max(ax, bx) + slack);
    for (let i = i0; i <= i1; i++) {
      // The edge's y-range within this column (the whole edge when it is vertical).
      const cx0 = origin.x + i * size,
        cx1 = cx0 + size;
      const [ya, yb] = ax === bx ? [ay, by] : [yAt(ax, ay, bx, by, Math.max(cx0, Math.min(ax, bx))), yAt(ax, ay, bx, by, Math.min(cx1, Math.max(ax, bx)))];
      const j0 = row(Math.min(ya, yb) - slack),
        j1 = row(Math.max(ya, yb) + slack);
      for (let j = j0; j <= j1; j++) {
        const key = j * columns + i;
        if (keys.has(key)) continue;
        const cy0 = origin.y + j * size;
        if (segmentTouchesRect(ax, ay, bx, by, { minX: cx0, minY: cy0, maxX: cx1, maxY: cy0 + size })) keys.add(key);
      }
    }
  }
  return keys;
}

function yAt(ax: number, ay: number, bx: number, by: number, x: number): number {
  return ay + ((x - ax) / (bx - ax)) * (by - ay);
}

/** True when segment ab and the closed rectangle share a point. */
function segmentTouchesRect(ax: number, ay: number, bx: number, by: number, r: BBox): boolean {
  const inside = (x: number, y: number) => x >= r.minX && x <= r.maxX && y >= r.minY && y <= r.maxY;
  if (inside(ax, ay) || inside(bx, by)) return true;
  return (
    segmentsIntersect(ax, ay, bx, by, r.minX, r.minY, r.maxX, r.minY) ||
    segmentsIntersect(ax, ay, bx, by, r.maxX, r.minY, r.maxX, r.maxY) ||
    segmentsIntersect(ax, ay, bx, by, r.maxX, r.maxY, r.minX, r.maxY) ||
    segmentsIntersect(ax, ay, bx, by, r.minX, r.maxY, r.minX, r.minY)
  );
}
