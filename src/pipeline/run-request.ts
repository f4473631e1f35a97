import { setMaxListeners } from 'node:events';
import type { Piscina } from 'piscina';
import type { ContextRequest } from '../contract/types.ts';
import type { ResponseWarning } from '../contract/response-schema.ts';
import { JsonBytesWriter } from '../encode/json-bytes.ts';
import { collectorsFor, familiesFor, planTasks, responseGroups, withoutFamilyGroups } from '../features/index.ts';
import type { FamilySources } from '../features/family.ts';
import { needsTerrain, type RequestPlan, type TileTask } from '../plan/plan-request.ts';
import type { TileResult } from '../plan/tile-result.ts';
import type { Attribution } from '../sources/attributions.ts';
import type { CanopySourceConfig } from '../sources/canopy/config.ts';
import { sharedElevationSource, type DemSourceConfig } from '../sources/dem/config.ts';
import type { GroupSink } from './group-sink.ts';
import { osmUnavailableWarning } from './osm-coverage.ts';
import { premiumDatasetsCovering, premiumSources } from './premium-coverage.ts';
import { requestSite, siteReadBoxes } from './request-site.ts';
import { osmStoreExtent, siteOsmSource } from '../tile/osm-sources.ts';
import { TaskOrder } from './task-order.ts';
import { TerrainAssembly } from './terrain-assembly.ts';
import { schedulerFor, SMALL_REQUEST_TILES } from './tile-scheduler.ts';

export interface PipelineDeps {
  pool: Piscina;
  /** The export writers' own pool (src/export/export-pool.ts); needed by exports only. */
  exportPool?: Piscina;
  storePath: string;
  /** The premium building store (`<data dir>/premium.sqlite`); absent = no premium buildings. */
  premiumStorePath?: string;
  tileSize: number;
  /** DEM sources; null or absent = the bundled SRTM tile. */
  dem?: DemSourceConfig[] | null;
  /** Canopy height models (treeSource hybrid/canopy); null or absent = none. */
  canopy?: CanopySourceConfig[] | null;
  /** The ground cache; null or absent = every tile builds its ground itself. */
  groundCache?: { path: string; maxBytes: number } | null;
  /** Told of the request's tiles as they are planned and handed over (the command line's progress bar); the server passes none. */
  progress?: PipelineProgress;
  /** Told each tile's worker timings (ms by stage) as it comes in: the service's metrics. */
  tileTimings?: (timings: Record<string, number>) => void;
}

/** Watches one request's tiles: what a progress display needs, nothing the answer depends on. */
export interface PipelineProgress {
  /** The keys of the groups the answer will hold, once, before any tile. */
  groups(keys: readonly string[]): void;
  /** `count` more tiles were planned: the first round, then terrain's extra rounds. */
  planned(count: number): void;
  /** A tile's groups went to the sink: the keys that got items, and their bytes. */
  tileDone(keys: readonly string[], bytes: number): void;
}

export interface RunSummary {
  plan: RequestPlan;
  tiles: number;
  items: Record<string, number>;
  attributions: Attribution[];
  /** Summed worker milliseconds per stage (query, build, encode, terrain). */
  workerMs: Record<string, number>;
  /** docs/design.md warnings: where the model is less than asked for. */
  warnings: ResponseWarning[];
  /** Premium datasets that gave the answer any building, sorted (their credit lines are in `attributions`). */
  premiumDatasets: string[];
}

/** What a caller decides per request beyond the request itself. */
export interface RunOptions {
  /**
   * The premium datasets the caller may use (src/plan/premium-access.ts: its entitlements among
   * the datasets covering the area); absent = every dataset in the store (the command line, the
   * warm-up). `buildingSources: global` uses none whatever this says.
   */
  premiumDatasets?: readonly string[];
}

/**
 * How many tiles per worker an ordered sink's request may run beyond the first tile not yet handed
 * over (task-order.ts): enough to keep every worker busy past a slow tile, few enough to bound what
 * the main thread holds.
 */
export const ORDERED_WINDOW_PER_THREAD = 4;

/** Output keys the main thread fills itself rather than the tiles: the merged elevation maps. */
const MAIN_THREAD_KEYS = new Set(['topography:maps']);

/**
 * Runs a request on the worker pool: every tile task in parallel, each finished tile's groups
 * handed to the sink at once (an `ordered` sink: in task order, group-sink.ts), every group
 * closed when all tiles are in. With terrain, a few
 * more rounds may follow (TerrainAssembly): tiles the DEM did not cover run again on filled
 * ground (or on z = 0 when nothing is covered), then terrain-only tiles under the returned
 * geometry and in the combined map's square. Elevation grids are merged here, in the main
 * thread, once every tile has sent its grid. The first tile failure cancels the remaining tasks
 * and rejects; so does `signal` (client gone).
 */
export async function runRequest(req: ContextRequest, deps: PipelineDeps, sink: GroupSink, signal: AbortSignal, options: RunOptions = {}): Promise<RunSummary> {
  const dem = deps.dem ?? null;
  const demResolutionMetres = needsTerrain(req) ? (await sharedElevationSource(dem)).resolutionMetresAt(req.origin[0]) : undefined;
  const sources: FamilySources = {
    canopy: deps.canopy ?? null,
    premium: premiumSources(deps.premiumStorePath, options.premiumDatasets),
    ...(deps.groundCache ? { groundCache: deps.groundCache } : {}),
  };
  // no OSM data under the polygon: the families' groups stay empty (declared all the same) and the
  // answer says why — but for the buildings of a premium dataset covering it
  const families = familiesFor(req.settings.geometry).length > 0;
  const premiumOnly = families && req.settings.geometry.includes('buildings') && premiumDatasetsCovering(req, sources).length > 0;
  const osmMissing = families ? osmUnavailableWarning(req, await osmStoreExtent(deps.storePath), premiumOnly) : null;
  const built = osmMissing ? withoutFamilyGroups(req, premiumOnly ? ['buildings'] : []) : req;
  const plan = planTasks(built, { tileSize: deps.tileSize, storePath: deps.storePath, dem, demResolutionMetres }, sources);
  // the site ground and terrain cover, the same ring for every tile (read along the polygon's edge;
  // where this thread has no readable store, e.g. a test's fixture source in the workers, the polygon)
  if (!osmMissing && plan.tasks.length > 0 && !plan.tasks[0].crop && (plan.groups.includes('surface') || plan.terrain?.meshes)) {
    const boxes = siteReadBoxes(plan.polygon, plan.frame);
    const site = (await osmStoreExtent(deps.storePath))
      ? requestSite(plan.polygon, plan.frame, await siteOsmSource(deps.storePath, boxes, ['building']))
      : undefined;
    if (site) for (const task of plan.tasks) task.site = site;
  }
  const groups = responseGroups(req.settings).map((g) => ({ ...g, fromTiles: !MAIN_THREAD_KEYS.has(g.key) }));
  for (const g of groups) sink.declare(g.key, g.type, g.geometryType);
  deps.progress?.groups(groups.map((g) => g.key));

  const cancel = new AbortController();
  setMaxListeners(0, cancel.signal); // one listener per queued tile task
  const onAbort = () => cancel.abort(signal.reason);
  if (signal.aborted) onAbort();
  else signal.addEventListener('abort', onAbort, { once: true });

  const items: Record<string, number> = {};
  const workerMs: Record<string, number> = {};
  const attributions = new Map<string, Attribution>();
  const premiumUsed = new Set<string>();
  const terrain = plan.terrain ? new TerrainAssembly(plan, req.settings.combineElevationMaps) : null;
  const collectors = collectorsFor(built, sources);
  let tileCount = 0;
  // this request's own line to the pool, served in turn with the other requests' (tile-scheduler.ts);
  // a tile starts only while the sink has room for its result
  const tiles = schedulerFor(deps.pool).queue(!sink.ordered && plan.tasks.length <= SMALL_REQUEST_TILES, sink.whenRoom ? () => sink.whenRoom!() : undefined);
  const take = (task: TileTask, result: TileResult): void => {
    const filled: string[] = [];
    let bytes = 0;
    for (const g of groups) {
      const part = g.fromTiles ? result.groups[g.key] : undefined;
      if (!part) continue;
      bytes += part.json.byteLength; // before the sink may transfer the buffer away
      if (part.count > 0) filled.push(g.key);
      sink.chunk(g.key, part.json, part.count);
      items[g.key] = (items[g.key] ?? 0) + part.count;
    }
    deps.progress?.tileDone(filled, bytes);
    for (const c of collectors) c.take(result);
    terrain?.take(task, result);
    for (const a of result.attributions) attributions.set(a.id, a);
    for (const d of result.premiumDatasets ?? []) premiumUsed.add(d);
    for (const [stage, ms] of Object.entries(result.timings)) workerMs[stage] = (workerMs[stage] ?? 0) + ms;
    deps.tileTimings?.(result.timings);
  };
  // an ordered sink: tiles handed over in task order, at most ORDERED_WINDOW_PER_THREAD per worker ahead
  const window = ORDERED_WINDOW_PER_THREAD * (deps.pool.options?.maxThreads ?? Infinity);
  const runAll = (tasks: readonly TileTask[]) => {
    const order = sink.ordered ? new TaskOrder<TileResult>(tasks.length, window, (n, result) => take(tasks[n], result)) : null;
    if (order) cancel.signal.addEventListener('abort', () => order.releaseAll(), { once: true });
    if (tasks.length > 0) deps.progress?.planned(tasks.length);
    return Promise.all(
      tasks
        .map(async (task, n) => {
          tileCount++;
          await order?.admit(n);
          if (cancel.signal.aborted) return;
          const result = (await tiles.run(task, cancel.signal)) as TileResult;
          if (cancel.signal.aborted) return;
          if (order) order.done(n, result);
          else take(task, result);
        })
        .map((p) =>
          p.catch((err) => {
            cancel.abort(err);
            throw err;
          }),
        ),
    );
  };
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
    entries.forEach((e, n) => {
      if (n > 0) w.byte(44);
      w.value(e);
    });
    sink.chunk('topography:maps', w.bytes(), entries.length);
    items['topography:maps'] = entries.length;
    workerMs.merge = performance.now() - t;
  }
  const warnings = [...(osmMissing ? [osmMissing] : []), ...(terrain?.warnings() ?? [])];
  // what waits for every tile (the trees: which ones the cap keeps depends on all of them)
  for (const c of collectors) {
    const done = c.finish();
    for (const { key, json, count } of done.chunks) {
      if (count > 0) sink.chunk(key, json, count);
      items[key] = (items[key] ?? 0) + count;
    }
    warnings.push(...done.warnings);
  }
  for (const g of groups) sink.done(g.key);
  return { plan, tiles: tileCount, items, attributions: [...attributions.values()], workerMs, warnings, premiumDatasets: [...premiumUsed].sort() };
}
