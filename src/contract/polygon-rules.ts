/**
 * The polygon rules of the request contract, as pure functions over untrusted JSON values.
 *
 * `checkPolygon` runs the checks in a fixed order and reports only the first rule that fails, so a
 * body always gets the same code:
 *   1. `polygon` is an array                                  → invalid_request
 *   2. every item is a pair of two finite numbers              → invalid_coordinate
 *   3. every latitude is in [-90, 90]                         → invalid_coordinate
 *   4. every longitude is in [-180, 180]                      → invalid_coordinate
 *   5. at least 4 points                                      → polygon_too_few_points
 *   6. closed: first and last point identical                 → polygon_not_closed
 *   7. at most MAX_POLYGON_POINTS points                      → polygon_too_many_points
 *   8. no edge spans more than 180° of longitude              → invalid_request (antimeridian, see below)
 *   9. at least 3 distinct corners (the ring encloses area)   → polygon_self_intersecting (reason "no_area")
 *  10. the ring does not cross, touch or fold back on itself  → polygon_self_intersecting
 *      (or polygon_too_many_points with reason "too_complex" when a crafted ring would make the
 *      check itself too expensive; see ring-self-intersection.ts)
 *  11. geodesic area ≤ MAX_AREA_KM2                           → polygon_too_large
 *  (8a, checked right after 8 because it is cheap and bounds the tiling: at most MAX_EXTENT_KM
 *      north–south and east–west                             → polygon_too_long)
 *
 * Decisions:
 * - Edges are straight lines in longitude/latitude, as in GeoJSON (and in turf's area).
 * - Antimeridian: an edge whose longitudes differ by more than 180° can only mean the ring wraps
 *   across ±180°. Such polygons are rejected with a message asking the caller to split the area;
 *   supporting them would need longitude unwrapping in every data source for a handful of Pacific islands.
 * - Zero area: a ring with fewer than 3 distinct corners, or whose corners all lie on one line,
 *   folds back onto itself; both are reported as polygon_self_intersecting (the collinear case is
 *   found by rule 10 as edges that overlap), so no separate "empty" code is needed.
 * - Consecutive repeated points are tolerated (many GIS exports contain them); they are welded
 *   before the geometric checks but the polygon is returned as given.
 */

import type { ErrorCode, ErrorDetail } from './errors.ts';
import { MAX_AREA_KM2, MAX_EXTENT_KM, MAX_ORIGIN_DISTANCE_KM, MAX_POLYGON_POINTS, MIN_POLYGON_POINTS } from './limits.ts';
import { extentKm, type LatLon, METRES_PER_DEGREE_LAT, METRES_PER_DEGREE_LON, originDistanceKm, ringAreaKm2 } from './polygon-measures.ts';
import { findRingSelfIntersection, RING_CHECK_DEFAULTS } from './ring-self-intersection.ts';

/** A broken rule: the error code, one summary sentence, and one detail per offending place. */
export interface RuleViolation {
  code: ErrorCode;
  message: string;
  details: ErrorDetail[];
}

export type PolygonVerdict = { ok: true; ring: LatLon[]; areaKm2: number } | { ok: false; violation: RuleViolation };

type Path = (string | number)[];

/** Enough offending points to locate a problem without echoing a huge array back. */
const MAX_DETAILS = 10;

/**
 * Validates a `polygon` value in the order above. `path` prefixes the detail paths
 * (default `['polygon']`; pass `[]` for paths relative to the polygon).
 */
export function checkPolygon(value: unknown, path: Path = ['polygon']): PolygonVerdict {
  const violation = firstViolation(value, path);
  if (violation) return { ok: false, violation };
  const ring = (value as LatLon[]).map((p) => [p[0], p[1]] as LatLon);
  return { ok: true, ring, areaKm2: ringAreaKm2(ring) };
}

/**
 * Validates a single [latitude, longitude] pair such as `origin` (rules 2–4).
 * `label` names it in the message, e.g. "origin".
 */
export function checkLatLon(value: unknown, path: Path, label: string): RuleViolation | null {
  if (!isNumberPair(value)) {
    return single('invalid_coordinate', `${label} must be a [latitude, longitude] pair of two finite numbers.`, path);
  }
  if (!isLatitude(value[0])) {
    return single('invalid_coordinate', `${label} has latitude ${value[0]}, outside -90 to 90.`, [...path, 0]);
  }
  if (!isLongitude(value[1])) {
    return single('invalid_coordinate', `${label} has longitude ${value[1]}, outside -180 to 180.`, [...path, 1]);
  }
  return null;
}

function firstViolation(value: unknown, path: Path): RuleViolation | null {
  if (!Array.isArray(value)) {
    const message =
      value === undefined
        ? 'polygon is required: give an array of [latitude, longitude] pairs.'
        : `polygon must be an array of [latitude, longitude] pairs, not ${describeKind(value)}.`;
    return single('invalid_request', message, path);
  }
  const points: unknown[] = value;

  const notPairs = offenders(points, (p) => !isNumberPair(p));
  if (notPairs.length > 0) {
    return pointViolation(
      'invalid_coordinate',
      notPairs,
      path,
      (i) => `Polygon point ${i} must be a [latitude, longitude] pair of two finite numbers.`,
      'are not [latitude, longitude] pairs of two finite numbers',
    );
  }
  const pairs = points as LatLon[];

  const badLat = offenders(pairs, (p) => !isLatitude(p[0]));
  if (badLat.length > 0) {
    return pointViolation(
      'invalid_coordinate',
      badLat,
      path,
      (i) => `Polygon point ${i} has latitude ${pairs[i][0]}, outside -90 to 90.`,
      'have latitudes outside -90 to 90',
      0,
    );
  }
  const badLon = offenders(pairs, (p) => !isLongitude(p[1]));
  if (badLon.length > 0) {
    return pointViolation(
      'invalid_coordinate',
      badLon,
      path,
      (i) => `Polygon point ${i} has longitude ${pairs[i][1]}, outside -180 to 180.`,
      'have longitudes outside -180 to 180',
      1,
    );
  }

  if (pairs.length < MIN_POLYGON_POINTS) {
    return single(
      'polygon_too_few_points',
      `The polygon has ${pairs.length} point${pairs.length === 1 ? '' : 's'} but needs at least ${MIN_POLYGON_POINTS} (a closed ring of 3 corners repeats the first point at the end).`,
      path,
      { points: pairs.length, minPoints: MIN_POLYGON_POINTS },
    );
  }

  const first = pairs[0];
  const last = pairs[pairs.length - 1];
  if (first[0] !== last[0] || first[1] !== last[1]) {
    return single(
      'polygon_not_closed',
      `The polygon is not closed: its last point [${last[0]}, ${last[1]}] must repeat its first point [${first[0]}, ${first[1]}].`,
      [...path, pairs.length - 1],
    );
  }

  if (pairs.length > MAX_POLYGON_POINTS) {
    return single(
      'polygon_too_many_points',
      `The polygon has ${pairs.length} points, more than the ${MAX_POLYGON_POINTS} allowed; simplify the outline.`,
      path,
      { points: pairs.length, maxPoints: MAX_POLYGON_POINTS },
    );
  }

  for (let i = 0; i + 1 < pairs.length; i++) {
    if (Math.abs(pairs[i + 1][1] - pairs[i][1]) > 180) {
      return single(
        'invalid_request',
        `The polygon crosses the antimeridian (180° longitude) between points ${i} and ${i + 1}, which is not supported; split the area at 180°.`,
        [...path, i + 1],
        { reason: 'crosses_antimeridian', edge: [i, i + 1] },
      );
    }
  }

  const extent = extentKm(pairs);
  if (Math.max(extent.northSouthKm, extent.eastWestKm) > MAX_EXTENT_KM) {
    return single(
      'polygon_too_long',
      `The polygon spans ${extent.northSouthKm.toFixed(1)} km north–south and ${extent.eastWestKm.toFixed(1)} km east–west; at most ${MAX_EXTENT_KM} km either way is allowed per request.`,
      path,
      { ...extent, maxExtentKm: MAX_EXTENT_KM },
    );
  }

  return geometricViolation(pairs, path);
}

/** `origin_too_far` when the origin lies more than MAX_ORIGIN_DISTANCE_KM from the polygon. */
export function checkOriginNear(origin: LatLon, pairs: readonly LatLon[], path: Path): RuleViolation | null {
  const distanceKm = originDistanceKm(origin, pairs);
  if (distanceKm <= MAX_ORIGIN_DISTANCE_KM) return null;
  return single(
    'origin_too_far',
    `The origin is ${distanceKm.toFixed(0)} km from the polygon; it must lie within ${MAX_ORIGIN_DISTANCE_KM} km of it (omit it to use the first polygon point).`,
    path,
    { distanceKm, maxDistanceKm: MAX_ORIGIN_DISTANCE_KM },
  );
}

/** Rules 9–11 on a closed ring of valid coordinates. */
function geometricViolation(pairs: LatLon[], path: Path): RuleViolation | null {
  const { coords, source } = weldedPlanarRing(pairs);
  const corners = Math.min(distinctCorners(pairs, 3), source.length);
  if (corners < 3) {
    return single(
      'polygon_self_intersecting',
      `The polygon encloses no area: it has only ${corners} distinct corner${corners === 1 ? '' : 's'} and needs at least 3.`,
      path,
      { reason: 'no_area', distinctPoints: corners },
    );
  }

  const hit = findRingSelfIntersection(coords);
  if (hit.status === 'too_complex') {
    return single(
      'polygon_too_many_points',
      `The polygon is too intricate to check: its ${source.length} edges lie across each other's bounding boxes more than ${RING_CHECK_DEFAULTS.maxCandidatePairs} times; simplify the outline.`,
      path,
      { reason: 'too_complex', points: pairs.length },
    );
  }
  if (hit.status === 'intersecting') {
    const edge = (e: number): [number, number] => [source[e], e + 1 < source.length ? source[e + 1] : pairs.length - 1];
    const [a0, a1] = edge(hit.edgeA);
    const [b0, b1] = edge(hit.edgeB);
    const how = hit.kind === 'crossing' ? 'cross each other' : hit.kind === 'touching' ? 'touch each other' : 'overlap each other';
    return single(
      'polygon_self_intersecting',
      `The polygon intersects itself: its edges from point ${a0} to ${a1} and from point ${b0} to ${b1} ${how}.`,
      path,
      {
        reason: hit.kind,
        edges: [
          [a0, a1],
          [b0, b1],
        ],
      },
    );
  }

  const areaKm2 = ringAreaKm2(pairs);
  if (!(areaKm2 <= MAX_AREA_KM2)) {
    return single('polygon_too_large', `The polygon covers ${areaKm2.toFixed(2)} km², more than the ${MAX_AREA_KM2} km² allowed per request.`, path, {
      areaKm2,
      maxAreaKm2: MAX_AREA_KM2,
    });
  }
  return null;
}

/**
 * The ring in a local planar frame (metres, an equirectangular map around the mean latitude — an
 * affine map of lon/lat, so it keeps straight edges straight and intersections as they are), with
 * the closing point dropped and consecutive points closer than the tolerance welded.
 * `source[k]` is the index in the given ring of welded vertex k.
 */
function weldedPlanarRing(pairs: LatLon[]): { coords: Float64Array; source: number[] } {
  const open = pairs.length - 1;
  let meanLat = 0;
  for (let i = 0; i < open; i++) meanLat += pairs[i][0];
  meanLat /= open;
  const kx = METRES_PER_DEGREE_LON * Math.cos((meanLat * Math.PI) / 180);
  const [lat0, lon0] = pairs[0];

  const tol = RING_CHECK_DEFAULTS.tolerance;
  const xs = new Float64Array(2 * open);
  const source: number[] = [];
  let k = 0;
  for (let i = 0; i < open; i++) {
    const x = (pairs[i][1] - lon0) * kx;
    const y = (pairs[i][0] - lat0) * METRES_PER_DEGREE_LAT;
    if (k > 0 && Math.hypot(x - xs[2 * k - 2], y - xs[2 * k - 1]) <= tol) continue;
    xs[2 * k] = x;
    xs[2 * k + 1] = y;
    source.push(i);
    k++;
  }
  // The last kept vertex may coincide with the first one (the ring closes through repeats).
  while (k > 1 && Math.hypot(xs[2 * k - 2] - xs[0], xs[2 * k - 1] - xs[1]) <= tol) {
    source.pop();
    k--;
  }
  return { coords: xs.subarray(0, 2 * k), source };
}

/** How many different points the ring has, counting no further than `enough`. */
function distinctCorners(pairs: LatLon[], enough: number): number {
  const seen: LatLon[] = [];
  for (const p of pairs) {
    if (!seen.some((q) => q[0] === p[0] && q[1] === p[1])) seen.push(p);
    if (seen.length >= enough) break;
  }
  return seen.length;
}

function isNumberPair(value: unknown): value is LatLon {
  return (
    Array.isArray(value) &&
    value.length === 2 &&
    typeof value[0] === 'number' &&
    Number.isFinite(value[0]) &&
    typeof value[1] === 'number' &&
    Number.isFinite(value[1])
  );
}

function isLatitude(lat: number): boolean {
  return lat >= -90 && lat <= 90;
}

function isLongitude(lon: number): boolean {
  return lon >= -180 && lon <= 180;
}

/** Indices of the items that fail, all of them (the count goes into the message). */
function offenders<T>(items: readonly T[], bad: (item: T) => boolean): number[] {
  const found: number[] = [];
  for (let i = 0; i < items.length; i++) if (bad(items[i])) found.push(i);
  return found;
}

/** One detail per offending point (at most MAX_DETAILS); `plural` finishes "Polygon point 3 and 4 others …". */
function pointViolation(code: ErrorCode, indices: number[], path: Path, detail: (i: number) => string, plural: string, member?: 0 | 1): RuleViolation {
  const others = indices.length - 1;
  const message = others === 0 ? detail(indices[0]) : `Polygon point ${indices[0]} and ${others} other${others === 1 ? '' : 's'} ${plural}.`;
  return {
    code,
    message,
    details: indices.slice(0, MAX_DETAILS).map((i) => ({
      path: member === undefined ? [...path, i] : [...path, i, member],
      message: detail(i),
      index: i,
    })),
  };
}

function single(code: ErrorCode, message: string, path: Path, extra: Record<string, unknown> = {}): RuleViolation {
  return { code, message, details: [{ path, message, ...extra }] };
}

function describeKind(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}
