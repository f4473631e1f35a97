import type { BBox } from '../geometry/types.ts';
import { squareOfTiles } from './merge-elevation.ts';
import type { TileTask } from './plan-request.ts';
import { tileBBox, type TileGrid } from './tiling.ts';

/**
 * Which extra tiles of the request's lattice the terrain needs beyond the polygon's tiles. Pure.
 *
 * - Under the geometry: a building that crosses the polygon boundary can reach into a tile that
 *   touches no part of the polygon; the client must get ground under it too, so every lattice tile
 *   a returned extent touches is part of the terrain.
 * - The rest of the square: the combined elevation map is a square of whole tiles; its tiles that
 *   nobody computed are sampled from the DEM as well, so no node of the map is invented where the
 *   DEM has data.
 */

export interface TileIndex {
  i: number;
  j: number;
}

const id = (t: TileIndex) => `${t.i},${t.j}`;

/** Lattice tiles (indices may lie outside the grid, even negative) that the boxes touch. */
export function tilesUnderExtents(grid: TileGrid, extents: readonly BBox[]): TileIndex[] {
  const out = new Map<string, TileIndex>();
  for (const e of extents) {
    const i0 = Math.floor((e.minX - grid.origin.x) / grid.size),
      j0 = Math.floor((e.minY - grid.origin.y) / grid.size);
    // A box ending exactly on a tile edge does not need the tile beyond it.
    const i1 = Math.max(i0, Math.ceil((e.maxX - grid.origin.x) / grid.size) - 1);
    const j1 = Math.max(j0, Math.ceil((e.maxY - grid.origin.y) / grid.size) - 1);
    for (let j = j0; j <= j1; j++) for (let i = i0; i <= i1; i++) out.set(id({ i, j }), { i, j });
  }
  return [...out.values()];
}

/** Tiles of the combined map's square (squareOfTiles) that are not in `have`. */
export function squareGaps(have: readonly TileIndex[]): TileIndex[] {
  if (have.length === 0) return [];
  const present = new Set(have.map(id));
  const { i0, j0, side } = squareOfTiles(have);
  const out: TileIndex[] = [];
  for (let j = j0; j < j0 + side; j++) for (let i = i0; i < i0 + side; i++) if (!present.has(id({ i, j }))) out.push({ i, j });
  return out;
}

/**
 * The extra terrain tiles of a request: `under` = tiles under the extents not yet computed (they
 * join the maps and meshes), `gaps` = the rest of the combined map's square around everything
 * (maps only; none when the maps are not combined). `done` = tiles already computed.
 */
export function extraTerrainTiles(
  grid: TileGrid,
  done: readonly TileIndex[],
  extents: readonly BBox[],
  combined: boolean,
): { under: TileIndex[]; gaps: TileIndex[] } {
  const have = new Set(done.map(id));
  const under = tilesUnderExtents(grid, extents).filter((t) => !have.has(id(t)));
  return { under, gaps: combined ? squareGaps([...done, ...under]) : [] };
}

/**
 * A terrain-only task for lattice tile (i, j), made from one of the request's tasks: no groups (no
 * buildings), no DEM margin, no draping; `meshes: false` for tiles only the combined map needs.
 * Keys count down from -1 so they never clash with polygon tiles.
 */
export function terrainOnlyTask(base: TileTask, t: TileIndex, n: number, outputs: { meshes: boolean }): TileTask {
  if (!base.terrain) throw new Error('terrain-only task for a request without terrain');
  return {
    ...base,
    key: -1 - n,
    tile: { i: t.i, j: t.j, bbox: tileBBox(base.grid, t.i, t.j) },
    groups: [],
    terrain: { ...base.terrain, meshes: base.terrain.meshes && outputs.meshes, drape: false, marginMetres: 0, ground: undefined },
  };
}
