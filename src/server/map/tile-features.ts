/**
 * What the page's map draws of the OSM store: buildings, roads, water and green areas, as GeoJSON
 * in lon/lat with one `layer` property, for one tile's box. The styling is simple on purpose: the
 * map is for finding a place and drawing a polygon, the model is the 3D preview.
 */
import type { LonLatBBox, OsmFeature, OsmLayer } from '../../osm-model/feature.ts';

export type MapLayer = 'buildings' | 'roads' | 'water' | 'green';
export const MAP_LAYERS: readonly MapLayer[] = ['water', 'green', 'roads', 'buildings'];

/** Store layers each map layer reads. */
const STORE_LAYERS: Record<MapLayer, readonly OsmLayer[]> = {
  buildings: ['building'],
  roads: ['highway', 'railway'],
  water: ['water'],
  green: ['landcover'],
};

const GREEN =
  /^(grass|meadow|forest|wood|scrub|grassland|heath|park|garden|recreation_ground|village_green|cemetery|golf_course|pitch|allotments|orchard|vineyard|nature_reserve|playground)$/;

export interface MapFeature {
  type: 'Feature';
  properties: { layer: MapLayer; kind: string };
  geometry: { type: 'Polygon'; coordinates: number[][][] } | { type: 'LineString'; coordinates: number[][] };
}

/** The store layers a tile at `zoom` reads: below `buildingsFrom`, no buildings (too many for a small map). */
export function storeLayersAt(zoom: number, buildingsFrom: number): OsmLayer[] {
  return MAP_LAYERS.filter((l) => l !== 'buildings' || zoom >= buildingsFrom).flatMap((l) => STORE_LAYERS[l]);
}

/** Ways too small to show before the buildings do (a city's footpaths outnumber its streets). */
const MINOR_ROADS = new Set(['footway', 'path', 'steps', 'service', 'track', 'cycleway', 'pedestrian', 'bridleway', 'corridor', 'elevator', 'platform']);

/** The map features of store features; `minor`: include footpaths and service roads (false at the lowest zooms). */
export function mapFeatures(features: readonly OsmFeature[], minor = true): MapFeature[] {
  const out: MapFeature[] = [];
  for (const f of features) {
    const layer = mapLayerOf(f);
    if (!layer) continue;
    const kind = f.tags.highway ?? f.tags['area:highway'] ?? f.tags.railway ?? f.tags.natural ?? f.tags.landuse ?? f.tags.leisure ?? f.tags.waterway ?? layer;
    if (!minor && layer === 'roads' && MINOR_ROADS.has(kind)) continue;
    const properties = { layer, kind };
    if (f.polygons) {
      for (const rings of f.polygons) out.push({ type: 'Feature', properties, geometry: { type: 'Polygon', coordinates: rings.map(closedRing) } });
    } else if (f.line && layer !== 'buildings' && layer !== 'green') {
      out.push({ type: 'Feature', properties, geometry: { type: 'LineString', coordinates: pairs(f.line) } });
    }
  }
  return out;
}

function mapLayerOf(f: OsmFeature): MapLayer | null {
  if (f.layer === 'building') return 'buildings';
  if (f.layer === 'highway' || f.layer === 'railway') return 'roads';
  if (f.layer === 'water') return 'water';
  if (f.layer === 'landcover') {
    const t = f.tags;
    return GREEN.test(t.landuse ?? '') || GREEN.test(t.natural ?? '') || GREEN.test(t.leisure ?? '') ? 'green' : null;
  }
  return null;
}

function pairs(flat: readonly number[]): number[][] {
  const out: number[][] = [];
  for (let i = 0; i + 1 < flat.length; i += 2) out.push([flat[i], flat[i + 1]]);
  return out;
}

function closedRing(flat: readonly number[]): number[][] {
  const ring = pairs(flat);
  if (ring.length > 0) ring.push(ring[0]);
  return ring;
}

/** The lon/lat box of web-mercator tile z/x/y. */
export function tileBox(z: number, x: number, y: number): LonLatBBox {
  const n = 2 ** z;
  const lon = (i: number) => (i / n) * 360 - 180;
  const lat = (j: number) => (Math.atan(Math.sinh(Math.PI * (1 - (2 * j) / n))) * 180) / Math.PI;
  return { minLon: lon(x), maxLon: lon(x + 1), minLat: lat(y + 1), maxLat: lat(y) };
}
