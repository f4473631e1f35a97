import type { BBox, Ring } from '../geometry/types.ts';
import { pointInRing } from '../geometry/ring.ts';
import { segmentsIntersect } from '../geometry/segments.ts';
import { touchedCells } from './touched-tiles.ts';

/**
 * Cuts the request polygon's local bounding box into square tiles and decides which tile builds
 * which feature. Pure: local metres in, tiles out.
 *
 * Ownership rule (no drops, no duplicates at seams): a feature that meets the polygon is built by
 * the single tile that contains its *anchor*, a point of the feature that lies in the polygon
 * (see `featureAnchor`, src/geometry/anchor.ts). Tiles are half-open [min, max) except along the grid's far edges, and every
 * tile that contains a point of the polygon is a task, so the owner of every anchor is a task.
 */

export interface Tile {
  /** Column and row in the grid (0, 0 = south-west). */
  i: number;
  j: number;
  bbox: BBox;
}

export interface TileGrid {
  origin: { x: number; y: number };
  size: number;
  columns: number;
  rows: number;
}

export function tileGridFor(polygon: Ring, tileSize: number): TileGrid {
  let minX = Infinity,
    minY = Infinity,
    maxX = -Infinity,
    maxY = -Infinity;
  for (let k = 0; k < polygon.length; k += 2) {
    minX = Math.min(minX, polygon[k]);
    maxX = Math.max(maxX, polygon[k]);
    minY = Math.min(minY, polygon[k + 1]);
    maxY = Math.max(maxY, polygon[k + 1]);
  }
  return {
    origin: { x: minX, y: minY },
    size: tileSize,
    columns: Math.max(1, Math.ceil((maxX - minX) / tileSize)),
    rows: Math.max(1, Math.ceil((maxY - minY) / tileSize)),
  };
}

export function tileBBox(grid: TileGrid, i: number, j: number): BBox {
  const minX = grid.origin.x + i * grid.size,
    minY = grid.origin.y + j * grid.size;
  return { minX, minY, maxX: minX + grid.size, maxY: minY + grid.size };
}

/** The tile a point belongs to (clamped to the grid; half-open cells except on the far edges). */
export function tileIndexOf(grid: TileGrid, x: number, y: number): { i: number; j: number } {
  const i = Math.min(grid.columns - 1, Math.max(0, Math.floor((x - grid.origin.x) / grid.size)));
  const j = Math.min(grid.rows - 1, Math.max(0, Math.floor((y - grid.origin.y) / grid.size)));
  return { i, j };
}

/**
 * Tiles of the grid that contain at least one point of the polygon (boundary or interior), in
 * row-major order; found from the polygon's edges, not by testing every tile (touched-tiles.ts).
 */
export function tilesTouchingPolygon(grid: TileGrid, polygon: Ring): Tile[] {
  return touchedCells(grid, polygon).map(([i, j]) => ({ i, j, bbox: tileBBox(grid, i, j) }));
}

/** True when the closed rectangle and the closed polygon share at least one point. */
export function rectTouchesPolygon(r: BBox, polygon: Ring): boolean {
  const n = polygon.length / 2;
  for (let k = 0; k < n; k++) {
    const x = polygon[2 * k],
      y = polygon[2 * k + 1];
    if (x >= r.minX && x <= r.maxX && y >= r.minY && y <= r.maxY) return true;
  }
  if (pointInRing(r.minX, r.minY, polygon)) return true;
  const corners = [r.minX, r.minY, r.maxX, r.minY, r.maxX, r.maxY, r.minX, r.maxY];
  for (let k = 0; k < n; k++) {
    const l = (k + 1) % n;
    for (let c = 0; c < 4; c++) {
      const d = (c + 1) % 4;
      if (
        segmentsIntersect(
          polygon[2 * k],
          polygon[2 * k + 1],
          polygon[2 * l],
          polygon[2 * l + 1],
          corners[2 * c],
          corners[2 * c + 1],
          corners[2 * d],
          corners[2 * d + 1],
        )
      )
        return true;
    }
  }
  return false;
}

/** Intersection point of segments ab and cd (assumed to intersect and not be parallel). */
/** A stable integer key for tile (i, j). */
export function tileKey(grid: TileGrid, i: number, j: number): number {
  return j * grid.columns + i;
}

/**
 * The task tile that builds a feature anchored at (x, y): the tile containing the anchor, or —
 * should rounding put the anchor in a tile that is not a task — the nearest task tile (lowest key
 * on ties). Every worker computes the same answer, so each feature is built exactly once.
 */
export function ownerTileKey(grid: TileGrid, taskKeys: ReadonlySet<number>, x: number, y: number): number {
  const { i, j } = tileIndexOf(grid, x, y);
  const key = tileKey(grid, i, j);
  if (taskKeys.has(key)) return key;
  let best = -1,
    bestDistance = Infinity;
  for (const k of [...taskKeys].sort((a, b) => a - b)) {
    const b = tileBBox(grid, k % grid.columns, Math.floor(k / grid.columns));
    const dx = Math.max(b.minX - x, 0, x - b.maxX),
      dy = Math.max(b.minY - y, 0, y - b.maxY);
    const d = dx * dx + dy * dy;
    if (d < bestDistance) {
      bestDistance = d;
      best = k;
    }
  }
  return best;
}
