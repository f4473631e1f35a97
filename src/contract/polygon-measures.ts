/**
 * Measures of a [lat, lon] ring the request rules and the price read: its geodesic area (turf's
 * formula, to the bit), the extent of its bounding box and how far a point lies from that box.
 * Pure arithmetic over plain degrees, no library: every thread that parses requests loads it.
 */

/** [latitude, longitude] in degrees. */
export type LatLon = [number, number];

/** Mean metres per degree of latitude and (at the equator) of longitude; only the ratio matters for topology. */
export const METRES_PER_DEGREE_LAT = 110_574;
export const METRES_PER_DEGREE_LON = 111_320;

/** Turf's mean Earth radius (6,371,008.8 m) squared over two, computed as turf does: the area, and so the price, is turf's to the bit. */
const HALF_RADIUS_SQUARED = (6_371_008.8 * 6_371_008.8) / 2;

/**
 * Geodesic area of a closed [lat, lon] ring in km²: the spherical-excess formula of turf's `area`
 * (Chamberlain and Duquette), written out here because importing `@turf/turf` for it loaded all of
 * turf into every thread that parses requests (~30 MB resident each).
 */
export function ringAreaKm2(ring: readonly LatLon[]): number {
  const n = ring.length - 1; // the closing point repeats the first
  if (n <= 2) return 0;
  const rad = Math.PI / 180; // turf's PI_OVER_180
  let total = 0;
  for (let i = 0; i < n; i++) {
    const lower = ring[i],
      middle = ring[i + 1 === n ? 0 : i + 1],
      upper = ring[i + 2 >= n ? (i + 2) % n : i + 2];
    total += (upper[1] * rad - lower[1] * rad) * Math.sin(middle[0] * rad);
  }
  return Math.abs(total * HALF_RADIUS_SQUARED) / 1e6;
}

/** North–south and (widest) east–west extent of the ring's bounding box, km. */
export function extentKm(pairs: readonly LatLon[]): { northSouthKm: number; eastWestKm: number } {
  const box = latLonBox(pairs);
  // East–west distances are widest at the latitude of the box nearest the equator.
  const nearestEquator = box.minLat <= 0 && box.maxLat >= 0 ? 0 : Math.min(Math.abs(box.minLat), Math.abs(box.maxLat));
  return {
    northSouthKm: ((box.maxLat - box.minLat) * METRES_PER_DEGREE_LAT) / 1000,
    eastWestKm: ((box.maxLon - box.minLon) * METRES_PER_DEGREE_LON * Math.cos((nearestEquator * Math.PI) / 180)) / 1000,
  };
}

/**
 * Great-circle distance from `origin` to the nearest point of the ring's bounding box, km
 * (0 inside it). With a box at most MAX_EXTENT_KM wide, this is within a few km of the
 * distance to the polygon itself.
 */
export function originDistanceKm(origin: LatLon, pairs: readonly LatLon[]): number {
  const box = latLonBox(pairs);
  const lat = Math.min(box.maxLat, Math.max(box.minLat, origin[0]));
  const lon = Math.min(box.maxLon, Math.max(box.minLon, origin[1]));
  const rad = Math.PI / 180; // turf's PI_OVER_180
  const h = Math.sin(((lat - origin[0]) * rad) / 2) ** 2 + Math.cos(lat * rad) * Math.cos(origin[0] * rad) * Math.sin(((lon - origin[1]) * rad) / 2) ** 2;
  return 2 * 6371.0088 * Math.asin(Math.min(1, Math.sqrt(h)));
}

function latLonBox(pairs: readonly LatLon[]): { minLat: number; maxLat: number; minLon: number; maxLon: number } {
  let minLat = Infinity,
    maxLat = -Infinity,
    minLon = Infinity,
    maxLon = -Infinity;
  for (const [lat, lon] of pairs) {
    if (lat < minLat) minLat = lat;
    if (lat > maxLat) maxLat = lat;
    if (lon < minLon) minLon = lon;
    if (lon > maxLon) maxLon = lon;
  }
  return { minLat, maxLat, minLon, maxLon };
}
