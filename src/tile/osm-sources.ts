/**
 * The OSM source of this thread for a store setting: a SQLite file (OsmStore, opened once per
 * thread) or a PostgreSQL URL (PostGIS, a small pg pool per thread). The families read
 * synchronously; from PostGIS a tile first reads its box in one go into memory (tileOsmSource) and
 * anything further out on the spot through a helper thread (src/sources/osm/postgis/sync-fetch.ts).
 */
import { statSync } from 'node:fs';
import type { LonLatBBox, OsmLayer } from '../osm-model/feature.ts';
import { OSM_LAYERS } from '../sources/osm/layers.ts';
import { isPostgresStore, PostgisStore, type Region } from '../sources/osm/postgis/postgis-store.ts';
import { OsmSnapshot } from '../sources/osm/postgis/snapshot.ts';
import { SyncFetcher } from '../sources/osm/postgis/sync-fetch.ts';
import { storeExtent, type StoreExtent } from '../sources/osm/store-extent.ts';
import { OsmStore } from '../sources/osm/store.ts';
import type { OsmSource } from '../sources/osm/types.ts';

const stores = new Map<string, OsmSource>();
const postgisStores = new Map<string, PostgisStore>();
const fetchers = new Map<string, SyncFetcher>();

/** Opens (once per thread) the SQLite OSM store at a path; tests may register a fixture source instead. */
export function osmSourceFor(path: string): OsmSource {
  let s = stores.get(path);
  if (!s) {
    if (isPostgresStore(path)) throw new Error('an OSM store on PostGIS is read through tileOsmSource or siteOsmSource');
    s = OsmStore.open(path);
    stores.set(path, s);
  }
  return s;
}

export function registerOsmSource(path: string, source: OsmSource): void {
  stores.set(path, source);
}

/** This thread's pool on a PostGIS store. */
export function postgisStoreFor(url: string): PostgisStore {
  let s = postgisStores.get(url);
  if (!s) {
    s = PostgisStore.open(url);
    postgisStores.set(url, s);
  }
  return s;
}

/** Where every family of a tile reads: all layers and the building groups this far around the tile. */
export const TILE_READ_PAD_METRES = 50;
/** The roads a tile joins at its edges reach further (surfaces/roads.ts ROAD_READ_METRES). */
export const TILE_ROAD_READ_PAD_METRES = 160;
const ROAD_LAYERS: readonly OsmLayer[] = ['highway', 'railway'];

/**
 * The source a tile reads: the SQLite store itself, or for PostGIS a snapshot of the tile's
 * surroundings read now (fresh for every tile: a changed way shows in the next request), which
 * reads anything further out synchronously on demand. `boxAt(pad)` is the tile's lon/lat box grown by pad metres.
 */
export async function tileOsmSource(path: string, boxAt: (padMetres: number) => LonLatBBox, groupsKey = ''): Promise<OsmSource> {
  if (stores.has(path) || !isPostgresStore(path)) return osmSourceFor(path);
  const store = postgisStoreFor(path);
  const nearBox = boxAt(TILE_READ_PAD_METRES);
  // what tiles of these groups read before; the first one of them reads everything
  const learned = readsOf.get(groupsKey);
  const layers = learned ? OSM_LAYERS.filter((l) => learned.layers.has(l)) : OSM_LAYERS;
  const roadLayers = ROAD_LAYERS.filter((l) => layers.includes(l));
  // the version is read before the data: what is kept under it is at least as new as it
  const [version, near, roads] = await Promise.all([
    everywhere.has(path) ? store.storeVersion() : null,
    store.fetchRegion(nearBox, { layers, groups: learned?.groups ?? true }),
    roadLayers.length > 0 ? store.fetchRegion(boxAt(TILE_ROAD_READ_PAD_METRES), { layers: roadLayers, groups: false, except: nearBox }) : null,
  ]);
  const seen = readsOf.get(groupsKey) ?? { layers: new Set<OsmLayer>(), groups: false };
  readsOf.set(groupsKey, seen);
  const kept = everywhere.get(path);
  const snapshot = new OsmSnapshot(
    (box, request) => {
      let fetcher = fetchers.get(path);
      if (!fetcher) {
        fetcher = new SyncFetcher(path);
        fetchers.set(path, fetcher);
      }
      const whole = isEverywhere(box) && !request.groups;
      const region = fetcher.fetch(box, whole && version === null ? { ...request, withVersion: true } : request);
      const at = version ?? region.version;
      if (whole && at !== undefined) everywhere.set(path, { version: at, regions: [...(everywhere.get(path)?.regions ?? []), region] });
      return region;
    },
    (asked, groups) => {
      for (const l of asked) seen.layers.add(l);
      if (groups) seen.groups = true;
    },
  );
  if (kept?.version === version) for (const region of kept.regions) snapshot.add(region);
  else everywhere.delete(path);
  snapshot.add(near);
  if (roads) snapshot.add(roads);
  return snapshot;
}

/**
 * Per set of requested groups, the layers (and whether building groups) their tiles have read on
 * this thread: a tile of a buildings-only request need not read the roads and trees. A read of
 * anything else is still answered — fetched on the spot — and learnt.
 */
const readsOf = new Map<string, { layers: Set<OsmLayer>; groups: boolean }>();

/**
 * Reads over the whole store (the ground reads every coastline once, surfaces/coastlines.ts), kept
 * per thread for the store version they were read at: every tile would read them again otherwise.
 */
const everywhere = new Map<string, { version: string; regions: Region[] }>();

function isEverywhere(box: LonLatBBox): boolean {
  return box.minLon <= -180 && box.minLat <= -90 && box.maxLon >= 180 && box.maxLat >= 90;
}

/**
 * A source for reads on the main thread within `boxes` (the request's site along its edges): the
 * SQLite store, or a snapshot of those layers in those boxes read from PostGIS now, in one query.
 * It cannot read further: the main thread must not wait.
 */
export async function siteOsmSource(path: string, boxes: readonly LonLatBBox[], layers: readonly OsmLayer[]): Promise<OsmSource> {
  if (stores.has(path) || !isPostgresStore(path)) return osmSourceFor(path);
  const snapshot = new OsmSnapshot();
  for (const region of await postgisStoreFor(path).fetchBoxes(boxes, layers)) snapshot.add(region);
  return snapshot;
}

/** The extent of the store's data (null: cannot tell), for the osm_unavailable warning. */
export async function osmStoreExtent(path: string): Promise<StoreExtent | null> {
  if (!isPostgresStore(path)) return storeExtent(path);
  return postgisStoreFor(path).extent();
}

const WORLD: LonLatBBox = { minLon: -180, minLat: -90, maxLon: 180, maxLat: 90 };

/** The anchor of the store's middle building group (by gid), where warm-ups centre; null when it has none. */
export async function middleGroupRep(path: string): Promise<[number, number] | null> {
  if (isPostgresStore(path) && !stores.has(path)) return postgisStoreFor(path).middleGroupRep();
  const groups = osmSourceFor(path).buildingGroups(WORLD);
  return groups.length > 0 ? groups[Math.floor(groups.length / 2)].rep : null;
}

/**
 * A cheap token that changes whenever the store's data does, for caches keyed on the store: for
 * PostGIS the cc_store_version counter (bumped with every osm2pgsql change and post-import run, in
 * the same transaction); for a SQLite file its modification time and size (a new import replaces
 * the file).
 */
export async function osmStoreVersion(path: string): Promise<string> {
  if (isPostgresStore(path)) return `pg:${await postgisStoreFor(path).storeVersion()}`;
  try {
    const s = statSync(path);
    return `file:${s.mtimeMs}:${s.size}`;
  } catch {
    return 'file:none';
  }
}
