/**
 * Honest outside the data: a polygon that lies wholly outside the OSM store's extent gets empty
 * feature groups and an `osm_unavailable` warning naming the extent, instead of an answer that
 * looks like an empty place; when the polygon would lie inside with latitude and longitude
 * swapped (a common mistake: GeoJSON order is [longitude, latitude], ours [latitude, longitude]),
 * the warning says so.
 */
import type { ResponseWarning } from '../contract/response-schema.ts';
import type { ContextRequest } from '../contract/types.ts';
import type { LonLatBBox } from '../osm-model/feature.ts';
import { storeExtent, type StoreExtent } from '../sources/osm/store-extent.ts';

/**
 * The warning when the store has no OSM data anywhere under the polygon; null when it has, or cannot
 * tell. `store`: a SQLite store's path, or the extent of the store already read (tile/osm-sources.ts
 * osmStoreExtent). `premiumBuildings`: premium buildings cover the polygon (the warning then says
 * the other groups are empty).
 */
export function osmUnavailableWarning(req: ContextRequest, store: string | StoreExtent | null, premiumBuildings = false): ResponseWarning | null {
  const extent = typeof store === 'string' ? storeExtent(store) : store;
  if (!extent) return null;
  const box = polygonBox(req.polygon, false);
  if (intersects(box, extent)) return null;
  const swapped = polygonBox(req.polygon, true);
  const swappedInside = swapped.minLat >= -90 && swapped.maxLat <= 90 && intersects(swapped, extent);
  const round = (v: number) => Math.round(v * 1e6) / 1e6;
  const storeBox = [extent.minLon, extent.minLat, extent.maxLon, extent.maxLat].map(round);
  return {
    code: 'osm_unavailable',
    message:
      `The OpenStreetMap data on this server covers longitude ${storeBox[0]} to ${storeBox[2]}, latitude ${storeBox[1]} to ${storeBox[3]}, ` +
      (premiumBuildings
        ? 'and none of it lies under the polygon, so ground, barriers and instances are empty; the buildings are premium data only.'
        : 'and none of it lies under the polygon, so buildings, ground, barriers and instances are empty.') +
      (swappedInside ? ' With latitude and longitude swapped the polygon would lie inside it: points are [latitude, longitude].' : ''),
    details: { storeExtent: storeBox, storeExtentFrom: extent.from, swappedLatLon: swappedInside },
  };
}

/** The lon/lat box of a [latitude, longitude] ring (read the other way round with `swap`). */
function polygonBox(ring: readonly (readonly [number, number])[], swap: boolean): LonLatBBox {
  let minLon = Infinity,
    minLat = Infinity,
    maxLon = -Infinity,
    maxLat = -Infinity;
  for (const [a, b] of ring) {
    const lat = swap ? b : a,
      lon = swap ? a : b;
    minLon = Math.min(minLon, lon);
    maxLon = Math.max(maxLon, lon);
    minLat = Math.min(minLat, lat);
    maxLat = Math.max(maxLat, lat);
  }
  return { minLon, minLat, maxLon, maxLat };
}

function intersects(a: LonLatBBox, b: LonLatBBox): boolean {
  return a.minLon <= b.maxLon && b.minLon <= a.maxLon && a.minLat <= b.maxLat && b.minLat <= a.maxLat;
}
