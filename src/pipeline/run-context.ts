import { setMaxListeners } from 'node:events';
import type { Piscina } from 'piscina';
import type { ContextRequest, GeometryGroup } from '../contract/types.ts';
import { planRequest, type RequestPlan } from '../plan/plan-request.ts';
import type { GroupSink } from '../server/response-stream.ts';
import type { TileResult } from './build-tile.ts';
import { OSM_ATTRIBUTION, type Attribution } from './attributions.ts';

export interface PipelineDeps {
  pool: Piscina;
  storePath: string;
  tileSize: number;
}

export interface RunSummary {
  plan: RequestPlan;
  tiles: number;
  items: Record<string, number>;
  attributions: Attribution[];
  /** Summed worker milliseconds per stage (query, build, encode). */
  workerMs: Record<string, number>;
}

/** The name a group has in the response: `instances` is called what the caller called it. */
export function responseGroupName(group: GeometryGroup, req: ContextRequest): string {
  return group === 'instances' ? req.settings.instancesGroupName : group;
}

/**
 * Runs a planned request on the worker pool: every tile task in parallel, each finished tile's
 * groups handed to the sink at once, every group closed when all tiles are in. The first tile
 * failure cancels the remaining tasks and rejects; so does `signal` (client gone).
 */
export async function runContext(req: ContextRequest, deps: PipelineDeps, sink: GroupSink, signal: AbortSignal): Promise<RunSummary> {
  const plan = planRequest(req, { tileSize: deps.tileSize, storePath: deps.storePath });
  for (const g of plan.groups) sink.declare(responseGroupName(g, req), 'meshes', 'meshes');

  const cancel = new AbortController();
  setMaxListeners(0, cancel.signal); // one listener per queued tile task
  const onAbort = () => cancel.abort(signal.reason);
  if (signal.aborted) onAbort();
  else signal.addEventListener('abort', onAbort, { once: true });

  const items: Record<string, number> = {};
  const workerMs: Record<string, number> = {};
  try {
    await Promise.all(plan.tasks.map(async (task) => {
      const result = (await deps.pool.run(task, { signal: cancel.signal })) as TileResult;
      if (cancel.signal.aborted) return;
      for (const g of plan.groups) {
        const name = responseGroupName(g, req);
        const part = result.groups[g];
        if (!part) continue;
        sink.chunk(name, part.json, part.count);
        items[name] = (items[name] ?? 0) + part.count;
      }
      for (const [stage, ms] of Object.entries(result.timings)) workerMs[stage] = (workerMs[stage] ?? 0) + ms;
    }).map((p) => p.catch((err) => { cancel.abort(err); throw err; })));
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
  for (const g of plan.groups) sink.done(responseGroupName(g, req));
  const attributions = plan.groups.length > 0 ? [OSM_ATTRIBUTION] : [];
  return { plan, tiles: plan.tasks.length, items, attributions, workerMs };
}
