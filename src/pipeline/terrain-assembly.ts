import type { ElevationGrid } from '../geometry/terrain/elevation-grid.ts';
import type { ElevationMapEntry } from '../geometry/terrain/elevation-map-entry.ts';
import type { BBox } from '../geometry/types.ts';
import { cutField, filledField } from '../plan/elevation-field.ts';
import { elevationMapEntries } from '../plan/merge-elevation.ts';
import type { RequestPlan, TileTask } from '../plan/plan-request.ts';
import { extraTerrainTiles, terrainOnlyTask, type TileIndex } from '../plan/terrain-tiles.ts';
import type { TileResult } from '../plan/tile-result.ts';
import { elevationWarnings, type CoverageTally } from './warnings.ts';
import type { ResponseWarning } from '../contract/response-schema.ts';
import { cropPolygon, elevationMask } from '../geometry/crop/index.ts';

const id = (t: TileIndex) => `${t.i},${t.j}`;

/**
 * The main thread's side of a request's terrain, fed every tile result in turn:
 *
 * 1. Coverage: each tile reports how much of it a DEM covered; the tally gives the warnings.
 * 2. Uncovered tiles: a tile whose window the DEM did not cover completely builds nothing
 *    (features/terrain/tile-terrain.ts). `retries()` sends it again with ground cut from one field
 *    filled from the covered samples of all tiles — or, when no source covers anything, without
 *    terrain, so its buildings stand on z = 0 exactly as in a request without terrain.
 * 3. Extra tiles: `extraTasks()` lists terrain-only tasks for lattice tiles under the returned
 *    geometry (ground under buildings that cross the boundary) and for the rest of the combined
 *    map's square, so every map node is DEM data where the DEM has data.
 *
 * @example
 * const terrain = new TerrainAssembly(plan, combine);
 * for (const round of [plan.tasks, terrain.retries(), terrain.extraTasks(), terrain.retries()]) …
 */
export class TerrainAssembly {
  private readonly grids = new Map<string, ElevationGrid>();
  private pending: { task: TileTask; grid: ElevationGrid }[] = [];
  private readonly extents: BBox[] = [];
  private readonly tally: CoverageTally = { covered: 0, samples: 0, any: false };
  private extraCount = 0;

  constructor(
    private readonly plan: RequestPlan,
    private readonly combine: boolean,
  ) {}

  /** Takes one finished task's result. */
  take(task: TileTask, result: TileResult): void {
    if (result.coverage) {
      this.tally.covered += result.coverage.covered;
      this.tally.samples += result.coverage.samples;
      this.tally.any ||= result.coverage.any;
    }
    if (result.uncovered) this.pending.push({ task, grid: result.uncovered });
    if (result.elevation) this.grids.set(id(task.tile), result.elevation);
    if (result.extent) this.extents.push(result.extent);
  }

  /** The tasks of the uncovered tiles taken so far, to run again (see the class comment). */
  retries(): TileTask[] {
    const pending = this.pending;
    this.pending = [];
    if (pending.length === 0) return [];
    if (!this.tally.any) return pending.map(({ task }) => ({ ...task, terrain: null }));
    const field = filledField([...this.grids.values(), ...pending.map((p) => p.grid)]);
    if (!field) throw new Error('elevation coverage reported but no covered sample to fill from');
    return pending.map(({ task, grid }) => ({ ...task, terrain: { ...task.terrain!, ground: cutField(field, grid.bbox) } }));
  }

  /** Terrain-only tasks for the tiles under the returned geometry and the gaps of the map's square. */
  extraTasks(): TileTask[] {
    const t = this.plan.terrain;
    if (!t || !this.tally.any || !(t.maps || t.meshes) || this.plan.tasks.length === 0) return [];
    const done = this.plan.tasks.map((task) => task.tile);
    const { under, gaps } = extraTerrainTiles(this.plan.grid, done, this.extents, t.maps && this.combine);
    const base = this.plan.tasks[0];
    return [
      ...under.map((tile) => terrainOnlyTask(base, tile, this.extraCount++, { meshes: true })),
      ...gaps.map((tile) => terrainOnlyTask(base, tile, this.extraCount++, { meshes: false })),
    ];
  }

  /** The topography group's elevation maps (none without elevation data), per tile in south-west-first order. */
  mapEntries(): ElevationMapEntry[] {
    if (!this.tally.any) return [];
    const grids = [...this.grids.values()].sort((a, b) => a.bbox.minY - b.bbox.minY || a.bbox.minX - b.bbox.minX);
    const entries = elevationMapEntries(grids, this.combine);
    if (!this.plan.tasks[0]?.crop) return entries;
    // cropScene: the grids stay square; a parallel mask marks the nodes inside the polygon
    const poly = cropPolygon(this.plan.polygon);
    for (const e of entries) {
      const { terrainSize: size, segmentsCount: n, moveVector: c } = e.info;
      const bbox = { minX: c.x - size / 2, minY: c.y - size / 2, maxX: c.x + size / 2, maxY: c.y + size / 2 };
      e.mask = Array.from(elevationMask(bbox, n + 1, n + 1, poly));
    }
    return entries;
  }

  warnings(): ResponseWarning[] {
    return elevationWarnings(this.tally);
  }
}
