/**
 * A polygon from GeoJSON, as QGIS and most tools write it: a Feature, a FeatureCollection or
 * GeometryCollection holding one polygon, a bare Polygon, or a MultiPolygon of one part. GeoJSON
 * positions are [lon, lat(, alt)]; the API takes [lat, lon] pairs.
 */
import { UsageError } from './command.ts';

export interface PolygonInput {
  /** The outer ring as the API's [lat, lon] pairs. */
  ring: [number, number][];
  /** What was left out of the file, for the user (holes, other features). */
  notes: string[];
}

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Reads the polygon of a parsed GeoJSON document; UsageError when there is not exactly one. */
export function polygonFromGeoJson(doc: unknown): PolygonInput {
  if (!isObject(doc)) throw new UsageError('the GeoJSON is not an object');
  checkCrs(doc);
  const notes: string[] = [];
  const polygons = polygonsOf(doc, notes);
  if (polygons.length !== 1) {
    throw new UsageError(
      polygons.length === 0
        ? `the GeoJSON holds no Polygon (a ${String(doc.type)} without one)`
        : `the GeoJSON holds ${polygons.length} polygons; give one (e.g. in QGIS: Export → Save Selected Features As…)`,
    );
  }
  const rings = polygons[0];
  if (!Array.isArray(rings) || rings.length === 0) throw new UsageError('the Polygon has no coordinates');
  if (rings.length > 1) notes.push(`the polygon's ${rings.length - 1} hole(s) are ignored: the site is its outer ring`);
  return { ring: ringOf(rings[0]), notes };
}

/** Every polygon (its list of rings) in a GeoJSON object, looking through features and collections. */
function polygonsOf(node: Json, notes: string[]): unknown[] {
  switch (node.type) {
    case 'Feature':
      return isObject(node.geometry) ? polygonsOf(node.geometry, notes) : [];
    case 'FeatureCollection':
    case 'GeometryCollection': {
      const members = node.type === 'FeatureCollection' ? node.features : node.geometries;
      if (!Array.isArray(members)) throw new UsageError(`the ${node.type} has no ${node.type === 'FeatureCollection' ? 'features' : 'geometries'} list`);
      const found = members.flatMap((m) => (isObject(m) ? polygonsOf(m, notes) : []));
      const others = members.length - members.filter((m) => isObject(m) && isPolygonal(m)).length;
      if (others > 0 && found.length === 1) notes.push(`${others} member(s) that are not polygons are ignored`);
      return found;
    }
    case 'Polygon':
      return [node.coordinates];
    case 'MultiPolygon':
      return Array.isArray(node.coordinates) ? node.coordinates : [];
    case undefined:
      throw new UsageError('the JSON has no GeoJSON "type"');
    default:
      return [];
  }
}

function isPolygonal(m: Json): boolean {
  const g = m.type === 'Feature' ? m.geometry : m;
  return isObject(g) && (g.type === 'Polygon' || g.type === 'MultiPolygon');
}

/** GeoJSON positions to [lat, lon] pairs (altitude dropped). */
function ringOf(positions: unknown): [number, number][] {
  if (!Array.isArray(positions)) throw new UsageError('the Polygon ring is not a list of positions');
  return positions.map((p, i) => {
    if (!Array.isArray(p) || p.length < 2 || typeof p[0] !== 'number' || typeof p[1] !== 'number') {
      throw new UsageError(`position ${i} of the ring is not [longitude, latitude]: ${JSON.stringify(p)}`);
    }
    return [p[1], p[0]];
  });
}

/**
 * GeoJSON is WGS 84 longitude/latitude; the 2008 draft's `crs` member could say otherwise (old
 * QGIS exports in a projected CRS): such coordinates would be read as degrees, so they are refused.
 */
function checkCrs(doc: Json): void {
  const crs = doc.crs;
  const name = isObject(crs) && isObject(crs.properties) ? String(crs.properties.name ?? '') : '';
  if (name && !/CRS84|EPSG:+4326$|EPSG::4326$/i.test(name)) {
    throw new UsageError(`the GeoJSON's coordinates are in ${name}; save it in WGS 84 (EPSG:4326) longitude/latitude`);
  }
}
