/**
 * `GET /v1/map/info.json`: what the page's map needs besides tiles — where the OSM store has data
 * (its extent), where premium building data exists (the coverage polygons of premium.sqlite, when
 * there is one), the tile URL and zoom range, and the configured base-map style if any.
 */
import { existsSync, statSync } from 'node:fs';
import { storeExtent } from '../../sources/osm/store-extent.ts';
import { coverageInBox, listDatasets, openPremiumStore } from '../../sources/premium/store.ts';
import { BUILDINGS_FROM, MAX_ZOOM, MIN_ZOOM } from './map-tiles.ts';

export interface MapInfoOptions {
  storePath: string;
  premiumPath: string;
  /** CITY_MAP_STYLE_URL: a MapLibre style to draw under the service's own layers. */
  styleUrl: string | null;
}

interface PremiumFeature {
  type: 'Feature';
  properties: { dataset: string; name: string };
  geometry: { type: 'Polygon'; coordinates: number[][][] };
}

export class MapInfo {
  private premium: { mtimeMs: number; features: PremiumFeature[] } | null = null;

  constructor(private readonly options: MapInfoOptions) {}

  info(): unknown {
    const extent = storeExtent(this.options.storePath);
    return {
      storeExtent: extent ? [extent.minLon, extent.minLat, extent.maxLon, extent.maxLat] : null,
      premiumCoverage: { type: 'FeatureCollection', features: this.premiumCoverage() },
      tiles: { url: '/v1/map/{z}/{x}/{y}.pbf', minzoom: MIN_ZOOM, maxzoom: MAX_ZOOM, buildingsFrom: BUILDINGS_FROM },
      styleUrl: this.options.styleUrl,
    };
  }

  /** Read once per store file version: a handful of polygons per dataset. */
  private premiumCoverage(): PremiumFeature[] {
    const path = this.options.premiumPath;
    if (!existsSync(path)) return [];
    const mtimeMs = statSync(path).mtimeMs;
    if (this.premium?.mtimeMs === mtimeMs) return this.premium.features;
    let features: PremiumFeature[] = [];
    try {
      const db = openPremiumStore(path, { readonly: true });
      try {
        const names = new Map(listDatasets(db).map((d) => [d.id, d.name]));
        features = coverageInBox(db).map((c) => ({
          type: 'Feature',
          properties: { dataset: c.dataset, name: names.get(c.dataset) ?? c.dataset },
          geometry: { type: 'Polygon', coordinates: c.polygon.map(closedRing) },
        }));
      } finally {
        db.close();
      }
    } catch {
      features = []; // being written by an import, or a layout this version does not read
    }
    this.premium = { mtimeMs, features };
    return features;
  }
}

function closedRing(flat: readonly number[]): number[][] {
  const ring: number[][] = [];
  for (let i = 0; i + 1 < flat.length; i += 2) ring.push([flat[i], flat[i + 1]]);
  if (ring.length > 0) ring.push(ring[0]);
  return ring;
}
