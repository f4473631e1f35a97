import { parseContextRequest } from '../contract/parse-request.ts';
import { planTasks } from '../features/index.ts';
import { buildTile } from './build-tile.ts';
import { middleGroupRep } from './osm-sources.ts';

export interface WarmUpOptions {
  /** Stop once this much time has gone, milliseconds. */
  budgetMs: number;
  /** Side of the square warmed on, metres. */
  sideMetres: number;
}

export const WARM_UP_DEFAULTS: WarmUpOptions = { budgetMs: 1000, sideMetres: 1500 };

/**
 * Runs real tile tasks over the store's own buildings in a worker thread at start-up, so that the
 * worker's code is loaded, its store open and its hot code optimised before anything else (whole
 * requests through the pool follow, pipeline/warm-up-requests.ts: this alone left the first real
 * request at ~1.9× the time of later ones). V8 runs new code in its interpreter and tiers it up
 * only after it has seen enough work, and a cold ~10 km² request cost about twice the CPU of a warm
 * one. The tasks are those of a request for the built default groups (buildings and the ground) on
 * a square around the middle of the store (and again under other default roofs, so untagged roofs
 * get warm too), built through the very code a request runs — the same functions with the same
 * argument shapes, so nothing is optimised for the warm-up only. Time-boxed; returns the number of
 * meshes built.
 */
export async function warmUpTiles(storePath: string, options: Partial<WarmUpOptions> = {}): Promise<number> {
  const { budgetMs, sideMetres } = { ...WARM_UP_DEFAULTS, ...options };
  const started = performance.now();
  if (budgetMs <= 0) return 0;
  const middle = await middleGroupRep(storePath);
  if (!middle) return 0;
  const [lon, lat] = middle;
  const dLat = sideMetres / 2 / 111_320,
    dLon = sideMetres / 2 / (111_320 * Math.cos((lat * Math.PI) / 180));
  const polygon = [
    [lat - dLat, lon - dLon],
    [lat - dLat, lon + dLon],
    [lat + dLat, lon + dLon],
    [lat + dLat, lon - dLon],
    [lat - dLat, lon - dLon],
  ];
  let meshes = 0;
  for (let round = 0; performance.now() - started < budgetMs; round++) {
    const defaultRoofType = ['flat', 'flat', 'hipped', 'gabled'][round % 4];
    const request = parseContextRequest({ polygon, settings: { geometry: ['buildings', 'surface'], defaultRoofType, cropScene: round % 2 === 1 } });
    for (const task of planTasks(request, { tileSize: 500, storePath, dem: null }).tasks) {
      // Cloned as piscina clones a request's tasks: deserialised objects have shapes of their own, and
      // code optimised for literal-built tasks would be thrown away at the first real one.
      meshes += (await buildTile(structuredClone(task))).groups.buildings?.count ?? 0;
      if (performance.now() - started >= budgetMs) break;
    }
  }
  return meshes;
}
