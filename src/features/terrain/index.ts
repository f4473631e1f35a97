import { groupSpec, type OutputSpec } from '../../contract/groups.ts';
import type { Settings } from '../../contract/types.ts';
import { JsonBytesWriter } from '../../encode/json-bytes.ts';
import { writeMeshJson } from '../../encode/mesh-json.ts';
import type { LocalFrame } from '../../frame/local-frame.ts';
import { clipSurfaceMesh, type CropPolygon } from '../../geometry/crop/index.ts';
import type { GridCoverage } from '../../geometry/terrain/elevation-grid.ts';
import type { GroundSampler } from '../../geometry/terrain/ground-sampler.ts';
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
  /** The tile's grid, for the elevation maps and for filling uncovered neighbours. */
  elevation?: TileElevation;
  coverage?: GridCoverage;
  /** The DEM did not cover the tile: build nothing on guessed ground (the main thread sends it again). */
  uncovered?: TileElevation;
  /** `topography:meshes` when terrain meshes are asked for. */
  meshes?: TileGroupResult;
  attributions: readonly Attribution[];
}

/**
 * The terrain, a family-like step: it builds the `topography` group, but unlike the feature
 * families it runs first in every tile and its result is the ground the families stand on (the
 * tile's elevation grid, a ground sampler, terrain meshes). The elevation maps are merged in the
 * main thread (src/pipeline/terrain-assembly.ts), which also plans its extra tiles and retries.
 */
export const terrainFamily = {
  name: 'terrain',
  group: 'topography',
  outputs: (s: Settings): readonly OutputSpec[] =>
    TOPOGRAPHY_OUTPUTS.filter((o) => (o.geometryType === 'elevationMaps' ? s.topographyReturnType !== 'meshes' : s.topographyReturnType !== 'elevationMap')),

  /** Reads (or takes from the task) the tile's terrain and builds its mesh when asked. */
  async read(
    task: TileTask,
    frame: LocalFrame,
    toOutput: (positions: Float64Array) => void,
    crop: CropPolygon | undefined,
    signal?: AbortSignal,
  ): Promise<TileTerrainStep> {
    const terrain = task.terrain!;
    const tile = await readTaskTerrain(terrain, frame, task.tile.bbox, signal);
    if (tile.uncovered) return { attributions: tile.attributions, coverage: tile.coverage, uncovered: tile.uncovered };
    const { bbox, columns, rows, heights } = tile.grid;
    const step: TileTerrainStep = {
      attributions: tile.attributions,
      coverage: tile.coverage,
      ground: terrain.drape ? tile.ground : undefined,
      elevation: { bbox, columns, rows, heights: heights.slice() }, // for the maps, and for filling uncovered neighbours
    };
    if (terrain.meshes) {
      const whole = buildTerrainMesh(tile.grid);
      const mesh = crop ? clipSurfaceMesh(whole, crop) : whole;
      const w = new JsonBytesWriter(1 << 14);
      if (mesh) {
        toOutput(mesh.positions);
        writeMeshJson(w, mesh, { type: 'terrain', tile: [task.tile.i, task.tile.j], ...(mesh !== whole ? { cropped: true } : {}) }, task.output.indexed);
      }
      step.meshes = { count: mesh ? 1 : 0, json: w.take() };
    }
    return step;
  },
};
