import Martini from '@mapbox/martini';
import type { IndexedMesh } from '../types.ts';
import type { ElevationGrid } from './elevation-grid.ts';
import { latticeCoordinate } from './elevation-grid.ts';

export interface TerrainMeshOptions {
  /** Largest vertical error (metres) the adaptive mesh may make against the grid; 0 keeps every sample. */
  maxError?: number;
  /** Use martini's adaptive mesh when the grid allows it ((2^k+1)² samples); otherwise a regular grid mesh. */
  adaptive?: boolean;
}

export const TERRAIN_MESH_DEFAULTS: Required<TerrainMeshOptions> = { maxError: 0.5, adaptive: true };

/** Martini instances by grid size: building one precomputes its triangle tree, so reuse it. */
const martinis = new Map<number, Martini>();

/**
 * A triangulated terrain surface over a grid, in the local z-up frame (x east, y north, z = height),
 * counter-clockwise seen from above. Adaptive (martini, within `maxError`) when the grid is
 * (2^k+1)², with every sample on the grid's border kept, so that neighbouring tiles, which share
 * their edge samples, meet vertex for vertex without cracks. Otherwise a regular grid mesh.
 *
 * @example
 * const mesh = buildTerrainMesh(tileGrid, { maxError: 0.5 });
 */
export function buildTerrainMesh(grid: ElevationGrid, options: TerrainMeshOptions = {}): IndexedMesh {
  const { maxError, adaptive } = { ...TERRAIN_MESH_DEFAULTS, ...options };
  const n = grid.columns - 1;
  const square = grid.columns === grid.rows;
  if (adaptive && square && n >= 2 && (n & (n - 1)) === 0) return adaptiveMesh(grid, maxError);
  return regularMesh(grid);
}

function vertexX(grid: ElevationGrid, col: number): number {
  return latticeCoordinate(grid.bbox.minX, grid.bbox.maxX, grid.columns - 1, col);
}

function vertexY(grid: ElevationGrid, row: number): number {
  return latticeCoordinate(grid.bbox.minY, grid.bbox.maxY, grid.rows - 1, grid.rows - 1 - row);
}

function adaptiveMesh(grid: ElevationGrid, maxError: number): IndexedMesh {
  const size = grid.columns;
  let martini = martinis.get(size);
  if (!martini) {
    martini = new Martini(size);
    martinis.set(size, martini);
  }
  const tile = martini.createTile(grid.heights);
  // Force full resolution along the border: an infinite error at every border sample makes every
  // triangle touching the border split down to single cells; update() carries the errors up the
  // triangle tree (it keeps the maximum), so the mesh stays conforming.
  const errors = tile.errors,
    max = size - 1;
  for (let k = 0; k < size; k++) {
    errors[k] = errors[max * size + k] = errors[k * size] = errors[k * size + max] = Infinity;
  }
  tile.update();
  const { vertices, triangles } = tile.getMesh(maxError);
  const count = vertices.length / 2;
  const positions = new Float64Array(count * 3);
  for (let v = 0; v < count; v++) {
    const col = vertices[2 * v],
      row = vertices[2 * v + 1];
    positions[3 * v] = vertexX(grid, col);
    positions[3 * v + 1] = vertexY(grid, row);
    positions[3 * v + 2] = grid.heights[row * size + col];
  }
  const indices = Uint32Array.from(triangles);
  orientUp(positions, indices);
  return { positions, indices };
}

function regularMesh(grid: ElevationGrid): IndexedMesh {
  const { columns, rows } = grid;
  const positions = new Float64Array(columns * rows * 3);
  for (let r = 0; r < rows; r++) {
    const y = vertexY(grid, r);
    for (let c = 0; c < columns; c++) {
      const v = r * columns + c;
      positions[3 * v] = vertexX(grid, c);
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

/** Makes every triangle counter-clockwise seen from +z (martini's winding depends on the split level). */
function orientUp(p: Float64Array, idx: Uint32Array): void {
  for (let t = 0; t < idx.length; t += 3) {
    const a = idx[t],
      b = idx[t + 1],
      c = idx[t + 2];
    const cross = (p[3 * b] - p[3 * a]) * (p[3 * c + 1] - p[3 * a + 1]) - (p[3 * b + 1] - p[3 * a + 1]) * (p[3 * c] - p[3 * a]);
    if (cross < 0) {
      idx[t + 1] = c;
      idx[t + 2] = b;
    }
  }
}
