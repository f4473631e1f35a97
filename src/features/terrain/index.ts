import { groupSpec, type OutputSpec } from '../../contract/groups.ts';
import type { Settings } from '../../contract/types.ts';
import { JsonBytesWriter } from '../../encode/json-bytes.ts';
import { writeMeshBinary } from '../../encode/mesh-binary.ts';
import { writeMeshJson } from '../../encode/mesh-json.ts';
import type { LocalFrame } from '../../frame/local-frame.ts';
import { clipAreas, type CropPolygon } from '../../geometry/crop/index.ts';
import type { ElevationGrid, GridCoverage } from '../../geometry/terrain/elevation-grid.ts';
import { createGroundSampler, type GroundSampler } from '../../geometry/terrain/ground-sampler.ts';
import { concatMeshes } from '../../geometry/mesh-builder.ts';
import { pieceMesh } from '../../geometry/surfaces/assemble/surface-meshes.ts';
import type { Footprint, IndexedMesh } from '../../geometry/types.ts';
import { buildTerrainMesh } from '../../geometry/terrain/terrain-mesh.ts';
import type { TileTask } from '../../plan/plan-request.ts';
import type { TileElevation, TileGroupResult } from '../../plan/tile-result.ts';
import type { Attribution } from '../../sources/attributions.ts';
import { readTaskTerrain } from './tile-terrain.ts';

const TOPOGRAPHY_OUTPUTS: readonly OutputSpec[] = groupSpec('topography')!.outputs;

/** What the terrain gives one tile before any family runs. */
export interface TileTerrainStep {
  /** Ground under features, when they stand on the terrain. */
  ground?: GroundSampler;
  /** The tile's grid (the terrain mesh is made from it). */
  grid?: ElevationGrid;
  /** A copy of the grid's samples, for the elevation maps and for filling uncovered neighbours. */
  elevation?: TileElevation;
  coverage?: GridCoverage;
  /** The DEM did not cover the tile: build nothing on guessed ground (the main thread sends it again). */
  uncovered?: TileElevation;
  attributions: readonly Attribution[];
}

/**
 * The terrain, a family-like step: it builds the `topography` group, but unlike the feature
 * families it runs first in every tile and its result is the ground the families stand on (the
 * tile's elevation grid, a ground sampler); its mesh is made after the families (`mesh`). The elevation maps are merged in the
 * main thread (src/pipeline/terrain-assembly.ts), which also plans its extra tiles and retries.
 */
export const terrainFamily = {
  name: 'terrain',
  group: 'topography',
  outputs: (s: Settings): readonly OutputSpec[] =>
    TOPOGRAPHY_OUTPUTS.filter((o) => (o.geometryType === 'elevationMaps' ? s.topographyReturnType !== 'meshes' : s.topographyReturnType !== 'elevationMap')),

  /** Reads (or takes from the task) the tile's terrain: its grid and the ground sampler. */
  async read(task: TileTask, frame: LocalFrame, signal?: AbortSignal): Promise<TileTerrainStep> {
    const terrain = task.terrain!;
    const tile = await readTaskTerrain(terrain, frame, task.tile.bbox, signal);
    if (tile.uncovered) return { attributions: tile.attributions, coverage: tile.coverage, uncovered: tile.uncovered };
    const { bbox, columns, rows, heights } = tile.grid;
    return {
      attributions: tile.attributions,
      coverage: tile.coverage,
      ground: terrain.drape ? tile.ground : undefined,
      grid: tile.grid,
      elevation: { bbox, columns, rows, heights: heights.slice() }, // for the maps, and for filling uncovered neighbours
    };
  },

  /**
   * The tile's terrain mesh (`topography:meshes`), once the families have run: the grid's
   * triangles over the site (the polygon plus the buildings crossing it; the whole square when the
   * tile lies inside the polygon) — or, when the ground family returned ground meshes, only where
   * it left the terrain bare (under buildings), draped exactly like the ground, so the ground and
   * the terrain never lie on each other in one file.
   */
  mesh(
    task: TileTask,
    step: TileTerrainStep,
    site: CropPolygon | undefined,
    bare: readonly Footprint[] | undefined,
    toOutput: (positions: Float64Array) => void,
  ): TileGroupResult {
    const grid = step.grid!;
    let mesh: IndexedMesh | null;
    const cropped = bare !== undefined || site !== undefined;
    if (!cropped) mesh = buildTerrainMesh(grid);
    else {
      // the terrain's piece of the site, or the bare ground, draped like a ground piece: cut along
      // the terrain's own triangles, on the millimetre grid, meeting the neighbouring tiles' pieces
      const { minX, minY, maxX, maxY } = task.tile.bbox;
      const square: Footprint = { outer: [minX, minY, maxX, minY, maxX, maxY, minX, maxY], holes: [] };
      const areas = bare ?? clipAreas([{ footprints: [square], descriptor: {} }], site!).flatMap((a) => a.footprints);
      const ground = createGroundSampler(grid);
      const pieces = areas.map((fp) => pieceMesh(fp, {}, { ground, drape: true })).filter((m) => m.indices.length > 0);
      mesh = pieces.length ? concatMeshes(pieces) : null;
    }
    if (!mesh) return { count: 0, json: new Uint8Array(0) };
    toOutput(mesh.positions);
    const descriptor = { type: 'terrain', tile: [task.tile.i, task.tile.j], ...(cropped ? { cropped: true } : {}) };
    if (task.output.binaryMeshes) return { count: 1, json: writeMeshBinary([{ mesh, descriptor }]) };
    const w = new JsonBytesWriter(1 << 14, task.output.decimals);
    writeMeshJson(w, mesh, descriptor, task.output.indexed);
    return { count: 1, json: w.take() };
  },
};
