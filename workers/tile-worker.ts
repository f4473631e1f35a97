/**
 * The piscina task entry: one tile in, encoded geometry groups out. Runs in a worker thread; the
 * OSM store connection and local frames are cached per thread across tasks and requests.
 */
import './thread-globals.ts';
import { threadId } from 'node:worker_threads';
import { move, transferableSymbol, valueSymbol } from 'piscina';
import { buildTile } from '../src/tile/build-tile.ts';
import type { TileResult } from '../src/plan/tile-result.ts';
import type { TileTask } from '../src/plan/plan-request.ts';
import { warmUpTiles } from '../src/tile/warm-up.ts';
import { loadRoofs } from '../src/geometry/buildings/roofs/index.ts';

export default async function runTileTask(task: TileTask): Promise<unknown> {
  const result: TileResult = await buildTile(task);
  const buffers: ArrayBufferLike[] = Object.values(result.groups).map((g) => g.json.buffer);
  if (result.elevation) buffers.push(result.elevation.heights.buffer);
  return move({
    get [transferableSymbol]() {
      return buffers;
    },
    get [valueSymbol]() {
      return result;
    },
  } as never);
}

/** Run once per thread at start-up so the first real request neither opens the store nor runs cold code. */
export async function warmup({ storePath, budgetMs }: { storePath: string; budgetMs: number }): Promise<{ threadId: number; meshes: number; ms: number }> {
  const started = performance.now();
  await loadRoofs();
  const meshes = await warmUpTiles(storePath, { budgetMs });
  return { threadId, meshes, ms: performance.now() - started };
}
