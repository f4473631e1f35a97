import type { IndexedMesh } from '../types.ts';
import type { ElevationGrid } from './elevation-grid.ts';
import { latticeCoordinate } from './elevation-grid.ts';

/**
 * The terrain surface of a grid as a mesh, in the local z-up frame (x east, y north, z = height):
 * every sample a vertex, every cell two triangles split along its south-west → north-east diagonal,
 * counter-clockwise seen from above. That is exactly the surface the ground sampler interpolates
 * (ground-sampler.ts) and the one three.js `PlaneGeometry` draws from an elevation map, so the
 * ground, buildings, barriers and trees stand on the very triangles the client receives.
 * Neighbouring tiles share their edge samples, so their meshes meet vertex for vertex.
 *
 * Not simplified: an adaptive mesh (martini, 0.5 m tolerance) was up to several metres off the
 * samples between its vertices, and the ground would have had to follow its irregular triangles;
 * the grid's spacing already follows the DEM's own resolution (grid-spacing.ts), so a tile holds
 * at most (segments + 1)² vertices.
 *
 * @example
 * const mesh = buildTerrainMesh(tileGrid);
 */
export function buildTerrainMesh(grid: ElevationGrid): IndexedMesh {
  const { columns, rows } = grid;
  const positions = new Float64Array(columns * rows * 3);
  for (let r = 0; r < rows; r++) {
    const y = latticeCoordinate(grid.bbox.minY, grid.bbox.maxY, rows - 1, rows - 1 - r);
    for (let c = 0; c < columns; c++) {
      const v = r * columns + c;
      positions[3 * v] = latticeCoordinate(grid.bbox.minX, grid.bbox.maxX, columns - 1, c);
      positions[3 * v + 1] = y;
      positions[3 * v + 2] = grid.heights[v];
    }
  }
  const indices = new Uint32Array((columns - 1) * (rows - 1) * 6);
  let t = 0;
  for (let r = 0; r < rows - 1; r++) {
    for (let c = 0; c < columns - 1; c++) {
      const nw = r * columns + c,
        ne = nw + 1,
        sw = nw + columns,
        se = sw + 1;
      // Row 0 is north, so sw → se → ne runs counter-clockwise seen from above.
      indices[t++] = sw;
      indices[t++] = se;
      indices[t++] = ne;
      indices[t++] = sw;
      indices[t++] = ne;
      indices[t++] = nw;
    }
  }
  return { positions, indices };
}
