import { setMaxListeners } from 'node:events';
import type { Piscina } from 'piscina';
import type { ContextRequest, GeometryGroup } from '../contract/types.ts';
import { JsonBytesWriter } from '../encode/json-bytes.ts';
import { needsTerrain, planRequest, type RequestPlan, type TileTask } from '../plan/plan-request.ts';
import { sharedElevationSource, type DemSourceConfig } from '../sources/dem/config.ts';
import type { GroupSink } from '../server/response-stream.ts';
import type { TileResult } from './build-tile.ts';
import type { Attribution } from './attributions.ts';
import { TerrainAssembly } from './terrain-assembly.ts';
import { schedulerFor } from './tile-scheduler.ts';
import type { ResponseWarning } from '../contract/response-schema.ts';
import { CAPPED_TREES_KEY, CanopyReport, TreeCap, treeCapWarning } from './tree-cap.ts';
import { attachTreePlan } from '../features/instances/tree-plan.ts';
import { CANOPY_REPORT_KEY } from '../features/instances/tree-source.ts';
import type { CanopySourceConfig } from '../sources/canopy/config.ts';

export interface PipelineDeps {
  pool: Piscina;
  /** The export writers' own pool (src/export/export-pool.ts); needed by exports only. */
  exportPool?: Piscina;
  storePath: string;
  tileSize: number;
  /** DEM sources; null or absent = the bundled SRTM tile. */
  dem?: DemSourceConfig[] | null;
  /** Canopy height models (treeSource hybrid/canopy); null or absent = none. */
  canopy?: CanopySourceConfig[] | null;
}

export interface RunSummary {
  plan: RequestPlan;
  tiles: number;
  items: Record<string, number>;
  attributions: Attribution[];
  /** Summed worker milliseconds per stage (query, build, encode, terrain). */
  workerMs: Record<string, number>;
  /** DESIGN.md warnings: where the model is less than asked for. */
  warnings: ResponseWarning[];
}

/** The name a group has in the response: `instances` is called what the caller called it. */
export function responseGroupName(group: GeometryGroup, req: ContextRequest): string {
  return group === 'instances' ? req.settings.instancesGroupName : group;
}

/** An output group of the response: the key tiles report it under, its `type` and `geometryType`. */
interface OutputGroup { key: string; type: string; geometryType: string; fromTiles: boolean }

function outputGroups(plan: RequestPlan, req: ContextRequest): OutputGroup[] {
  const out: OutputGroup[] = [];
  const surfaceTypes = req.settings.surfaceTypes;
  for (const g of plan.groups) {
    if (g === 'surface') {
      // SPEC: `meshes` gives the surface group; centerlines and/or outlines give draped polylines in surfaceLines.
      if (surfaceTypes.includes('meshes')) out.push({ key: 'surface', type: 'surface', geometryType: 'meshes', fromTiles: true });
      if (surfaceTypes.some((t) => t !== 'meshes')) out.push({ key: 'surfaceLines', type: 'surfaceLines', geometryType: 'polylines', fromTiles: true });
    } else if (g !== 'topography') {
      // DESIGN.md: instances are nodes (type, position, rotation, scale), every other group meshes
      out.push({ key: g, type: responseGroupName(g, req), geometryType: g === 'instances' ? 'nodes' : 'meshes', fromTiles: true });
    }
    else {
      if (plan.terrain?.maps) out.push({ key: 'topography:maps', type: 'topography', geometryType: 'elevationMaps', fromTiles: false });
      if (plan.terrain?.meshes) out.push({ key: 'topography:meshes', type: 'topography', geometryType: 'meshes', fromTiles: true });
    }
  }
  return out;
}

/**
 * Runs a request on the worker pool: every tile task in parallel, each finished tile's groups
 * handed to the sink at once, every group closed when all tiles are in. With terrain, a few
 * more rounds may follow (TerrainAssembly): tiles the DEM did not cover run again on filled
 * ground (or on z = 0 when nothing is covered), then terrain-only tiles under the returned
 * geometry and in the combined map's square. Elevation grids are merged here, in the main
 * thread, once every tile has sent its grid. The first tile failure cancels the remaining tasks
 * and rejects; so does `signal` (client gone).
 */
export async function runContext(req: ContextRequest, deps: PipelineDeps, sink: GroupSink, signal: AbortSignal): Promise<RunSummary> {
  const dem = deps.dem ?? null;
  const demResolutionMetres = needsTerrain(req) ? (await sharedElevationSource(dem)).resolutionMetresAt(req.origin[0]) : undefined;
  const plan = planRequest(req, { tileSize: deps.tileSize, storePath: deps.storePath, dem, demResolutionMetres });
  const groups = outputGroups(plan, req);
  attachTreePlan(plan.tasks, req.settings, deps.canopy);
  for (const g of groups) sink.declare(g.key, g.type, g.geometryType);

  const cancel = new AbortController();
  setMaxListeners(0, cancel.signal); // one listener per queued tile task
  const onAbort = () => cancel.abort(signal.reason);
  if (signal.aborted) onAbort();
  else signal.addEventListener('abort', onAbort, { once: true });

  const items: Record<string, number> = {};
  const workerMs: Record<string, number> = {};
  const attributions = new Map<string, Attribution>();
  const terrain = plan.terrain ? new TerrainAssembly(plan, req.settings.combineElevationMaps) : null;
  const treeCap = plan.groups.includes('instances') ? new TreeCap(req.settings.canopyMaxTrees) : null;
  const canopy = treeCap && req.settings.treeSource !== 'standard' ? new CanopyReport(req.settings.treeSource, deps.canopy) : null;
  let tileCount = 0;
  // this request's own line to the pool, served in turn with the other requests' (tile-scheduler.ts)
  const tiles = schedulerFor(deps.pool).queue();
  const runAll = (tasks: readonly TileTask[]) => Promise.all(tasks.map(async (task) => {
    tileCount++;
    const result = (await tiles.run(task, cancel.signal)) as TileResult;
    if (cancel.signal.aborted) return;
    for (const g of groups) {
      const part = g.fromTiles ? result.groups[g.key] : undefined;
      if (!part) continue;
      sink.chunk(g.key, part.json, part.count);
      items[g.key] = (items[g.key] ?? 0) + part.count;
    }
    treeCap?.take(result.groups[CAPPED_TREES_KEY]);
    canopy?.take(result.groups[CANOPY_REPORT_KEY]);
    terrain?.take(task, result);
    for (const a of result.attributions) attributions.set(a.id, a);
    for (const [stage, ms] of Object.entries(result.timings)) workerMs[stage] = (workerMs[stage] ?? 0) + ms;
  }).map((p) => p.catch((err) => { cancel.abort(err); throw err; })));
  try {
    await runAll(plan.tasks);
    if (terrain) {
      await runAll(terrain.retries());
      await runAll(terrain.extraTasks());
      await runAll(terrain.retries());
    }
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
  if (cancel.signal.aborted) throw cancel.signal.reason;
  if (plan.terrain?.maps && terrain) {
    const t = performance.now();
    const entries = terrain.mapEntries();
    const w = new JsonBytesWriter(1 << 16);
    entries.forEach((e, n) => { if (n > 0) w.byte(44); w.value(e); });
    sink.chunk('topography:maps', w.bytes(), entries.length);
    items['topography:maps'] = entries.length;
    workerMs.merge = performance.now() - t;
  }
  const warnings = terrain?.warnings() ?? [];
  if (treeCap) {
    // trees wait for every tile: which ones the cap keeps depends on all of them
    const kept = treeCap.finish();
    if (kept.count > 0) sink.chunk('instances', kept.json, kept.count);
    items.instances = (items.instances ?? 0) + kept.count;
    if (kept.dropped > 0) warnings.push(treeCapWarning(req.settings.canopyMaxTrees, kept.total, kept.dropped));
    if (canopy) warnings.push(...canopy.warnings());
  }
  for (const g of groups) sink.done(g.key);
  return { plan, tiles: tileCount, items, attributions: [...attributions.values()], workerMs, warnings };
}
