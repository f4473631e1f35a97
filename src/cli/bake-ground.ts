/**
 * `city-context bake-ground`: fills the ground cache (docs/ground.md "The ground cache") for the
 * whole store, or a box of it, ahead of requests, so even the first request over an area gets its
 * ground from the cache.
 */
import { SettingsSchema } from '../contract/request-schema.ts';
import { loadConfig, storePaths } from '../config.ts';
import { bakeGroundCells } from '../features/surfaces/cached-ground.ts';
import type { RoofShape } from '../geometry/buildings/roofs/types.ts';
import { groundCacheAt } from '../sources/ground-cache/store.ts';
import { storeExtent } from '../sources/osm/store-extent.ts';
import { OsmStore } from '../sources/osm/store.ts';
import { EXIT_BAD_INPUT, EXIT_FAILED, EXIT_OK, fail, parseCommandArgs, UsageError, type Command, type CommandIo } from './command.ts';
import { polygonFromBbox } from './polygon-input.ts';

const OPTIONS = { bbox: { type: 'string' }, settings: { type: 'string' } } as const;

const HELP = `Usage: city-context bake-ground [--bbox minLon,minLat,maxLon,maxLat] [--settings <json>]

Builds the ground of every cell of the ground cache that the store's extent (or the box) meets and
the cache does not hold yet. Requests whose cells are all kept get their ground from the cache.
  --bbox        only this box (GeoJSON order); default: the store's extent
  --settings    request settings whose building defaults the ground is built for
                (defaultLevels, defaultLevelHeight, defaultRoofType); default: the API's defaults

The store is $CITY_DATA_DIR/osm.sqlite and the cache $CITY_GROUND_CACHE (see docs/configuration.md).`;

const command: Command = { summary: 'fill the ground cache ahead of requests', help: HELP, run: runBakeGround };
export default command;

export async function runBakeGround(args: string[], io: CommandIo): Promise<number> {
  const config = loadConfig(io.env);
  const storePath = storePaths(config.dataDir).osm;
  let box: { minLon: number; minLat: number; maxLon: number; maxLat: number } | null;
  let settings: ReturnType<typeof SettingsSchema.parse>;
  try {
    const { values, positionals } = parseCommandArgs(args, OPTIONS);
    if (positionals.length > 0) throw new UsageError(`unexpected argument ${positionals[0]}`);
    if (!config.groundCache) throw new UsageError('CITY_GROUND_CACHE is off: there is no ground cache to fill');
    box = values.bbox ? boxOf(polygonFromBbox(values.bbox)) : storeExtent(storePath);
    if (!box) throw new UsageError(`no OSM store at ${storePath}: import one first (city-context import)`);
    const parsed = SettingsSchema.safeParse(values.settings ? JSON.parse(values.settings) : {});
    if (!parsed.success) throw new UsageError(`--settings: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
    settings = parsed.data;
  } catch (err) {
    return fail(io, EXIT_BAD_INPUT, (err as Error).message, 'bake-ground');
  }
  const cachePath = config.groundCache!;
  const source = OsmStore.open(storePath);
  let last = 0;
  try {
    const started = performance.now();
    const built = bakeGroundCells(
      source,
      groundCacheAt(cachePath.path, cachePath.maxBytes),
      { defaultLevels: settings.defaultLevels, defaultLevelHeight: settings.defaultLevelHeight, defaultRoofType: settings.defaultRoofType as RoofShape },
      box,
      (done, total) => {
        const now = performance.now();
        if (done < total && now - last < 1000) return;
        last = now;
        io.stderr.write(`cells ${done} / ${total}\n`);
      },
    );
    io.stdout.write(`ground cache ${cachePath.path}: ${built} cells built in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
    return EXIT_OK;
  } catch (err) {
    return fail(io, EXIT_FAILED, `bake-ground failed: ${err instanceof Error ? err.message : String(err)}`);
  } finally {
    source.close();
  }
}

function boxOf(ring: readonly [number, number][]) {
  const lats = ring.map((p) => p[0]),
    lons = ring.map((p) => p[1]);
  return { minLon: Math.min(...lons), minLat: Math.min(...lats), maxLon: Math.max(...lons), maxLat: Math.max(...lats) };
}
