/**
 * `GET /v1/map/{z}/{x}/{y}.pbf`: Mapbox vector tiles of the service's own OSM store, so the page's
 * map shows streets and buildings on a box with no internet. No key: a tile costs one indexed
 * store query and a few milliseconds, and tells nothing the extract does not. Bounded instead:
 * zoom MIN_ZOOM–MAX_ZOOM only (the map overzooms past it), no buildings, footpaths or service roads
 * below BUILDINGS_FROM, and
 * the tiles made last are kept (LRU by bytes) so panning back costs nothing.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { statSync } from 'node:fs';
import GeoJSONVT from 'geojson-vt';
import { fromGeojsonVt } from 'vt-pbf';
import { ApiError } from '../../contract/errors.ts';
import { OsmStore } from '../../sources/osm/store.ts';
import { MAP_LAYERS, mapFeatures, storeLayersAt, tileBox } from './tile-features.ts';

export const MIN_ZOOM = 13;
export const MAX_ZOOM = 16;
export const BUILDINGS_FROM = 14;
export const MAP_TILE_PATH = /^\/v1\/map\/(\d{1,2})\/(\d{1,6})\/(\d{1,6})\.pbf$/;
const EXTENT = 4096;

export interface MapTileOptions {
  storePath: string;
  /** Bytes of encoded tiles kept in memory. */
  cacheBytes?: number;
}

export class MapTiles {
  private store: OsmStore | null = null;
  private storeMtime = 0;
  private readonly cache = new Map<string, Buffer>();
  private cachedBytes = 0;
  private readonly cacheBytes: number;

  constructor(private readonly options: MapTileOptions) {
    this.cacheBytes = options.cacheBytes ?? 32 * 1024 * 1024;
  }

  serve(req: IncomingMessage, res: ServerResponse, match: RegExpExecArray): void {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      throw new ApiError('method_not_allowed', 'This resource only answers GET, HEAD.', [], { Allow: 'GET, HEAD' });
    }
    const [z, x, y] = [Number(match[1]), Number(match[2]), Number(match[3])];
    if (z < MIN_ZOOM || z > MAX_ZOOM || x >= 2 ** z || y >= 2 ** z) {
      throw new ApiError('not_found', `Map tiles exist for zoom ${MIN_ZOOM} to ${MAX_ZOOM} within the tile grid; ${z}/${x}/${y} is not one.`);
    }
    const body = this.tile(z, x, y);
    res.writeHead(200, {
      'content-type': 'application/vnd.mapbox-vector-tile',
      'content-length': body.length,
      // the store changes only with a new import; an hour is short enough for that
      'cache-control': 'public, max-age=3600',
    });
    res.end(req.method === 'HEAD' ? undefined : body);
  }

  /** The encoded tile (possibly empty: a tile outside the data is a valid tile with no features). */
  tile(z: number, x: number, y: number): Buffer {
    const store = this.openStore();
    const key = `${z}/${x}/${y}`;
    const hit = this.cache.get(key);
    if (hit) {
      this.cache.delete(key);
      this.cache.set(key, hit); // most recent last
      return hit;
    }
    const body = store ? encodeTile(store, z, x, y) : Buffer.alloc(0);
    this.remember(key, body);
    return body;
  }

  close(): void {
    this.store?.close();
    this.store = null;
  }

  /** The store, reopened (and the cache dropped) when a new import replaced the file; null while there is none. */
  private openStore(): OsmStore | null {
    let mtime: number;
    try {
      mtime = statSync(this.options.storePath).mtimeMs;
    } catch {
      return null;
    }
    if (this.store && mtime === this.storeMtime) return this.store;
    this.close();
    this.cache.clear();
    this.cachedBytes = 0;
    try {
      this.store = OsmStore.open(this.options.storePath);
      this.storeMtime = mtime;
    } catch {
      return null; // being built, or an older layout the start-up is about to replace
    }
    return this.store;
  }

  private remember(key: string, body: Buffer): void {
    this.cache.set(key, body);
    this.cachedBytes += body.length;
    for (const [k, b] of this.cache) {
      if (this.cachedBytes <= this.cacheBytes) break;
      this.cache.delete(k);
      this.cachedBytes -= b.length;
    }
  }
}

function encodeTile(store: OsmStore, z: number, x: number, y: number): Buffer {
  const box = tileBox(z, x, y);
  // a margin of ~1/16 tile, so lines and areas do not end at the tile edge
  const mLon = (box.maxLon - box.minLon) / 16,
    mLat = (box.maxLat - box.minLat) / 16;
  const query = { minLon: box.minLon - mLon, maxLon: box.maxLon + mLon, minLat: box.minLat - mLat, maxLat: box.maxLat + mLat };
  const features = mapFeatures(store.query(query, storeLayersAt(z, BUILDINGS_FROM)), z >= BUILDINGS_FROM);
  if (features.length === 0) return Buffer.alloc(0);
  const index = new GeoJSONVT({ type: 'FeatureCollection', features } as never, { maxZoom: z, indexMaxZoom: 0, extent: EXTENT, buffer: 64, tolerance: 2 });
  const tile = index.getTile(z, x, y) as { features: { tags: { layer: string } | null }[] } | null;
  if (!tile) return Buffer.alloc(0);
  const layers: Record<string, { features: unknown[] }> = {};
  for (const name of MAP_LAYERS) layers[name] = { features: tile.features.filter((f) => f.tags?.layer === name) };
  return Buffer.from(fromGeojsonVt(layers, { version: 2, extent: EXTENT }));
}
