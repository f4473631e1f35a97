import type { BBox } from '../types.ts';
import type { CropPolygon } from './crop-polygon.ts';

/**
 * The mask of an elevation map under cropScene: one number per grid node in the map's own order
 * (row-major, first row northernmost, first column westernmost), 1 where the node lies inside the
 * polygon and 0 outside. The heights stay a full square grid (every height real, so normals and
 * old clients keep working); a three.js client reads the mask directly as a vertex attribute or
 * uses it to drop the PlaneGeometry's triangles outside (docs/crop.md).
 *
 * One scanline per grid row (crossings of the polygon's edges, sorted), so the cost is
 * rows × edges + nodes, not nodes × edges: 513² nodes cost a few milliseconds.
 */
export function elevationMask(bbox: BBox, columns: number, rows: number, poly: CropPolygon): Uint8Array {
  const mask = new Uint8Array(columns * rows);
  const dx = (bbox.maxX - bbox.minX) / (columns - 1),
    dy = (bbox.maxY - bbox.minY) / (rows - 1);
  const ring = poly.ring,
    n = poly.n;
  const xs: number[] = [];
  for (let r = 0; r < rows; r++) {
    const y = bbox.maxY - r * dy;
    xs.length = 0;
    for (let i = 0, j = n - 1; i < n; j = i++) {
      const xi = ring[2 * i],
        yi = ring[2 * i + 1],
        xj = ring[2 * j],
        yj = ring[2 * j + 1];
      // the same half-open rule as pointInRing, so mask and point tests agree
      if (yi > y !== yj > y) xs.push(((xj - xi) * (y - yi)) / (yj - yi) + xi);
    }
    if (xs.length === 0) continue;
    xs.sort((a, b) => a - b);
    let k = 0;
    for (let c = 0; c < columns; c++) {
      const x = bbox.minX + c * dx;
      while (k < xs.length && xs[k] <= x) k++;
      // inside when an odd number of crossings lie right of x (x < crossing, as pointInRing counts)
      if ((xs.length - k) % 2 === 1) mask[r * columns + c] = 1;
    }
  }
  return mask;
}
