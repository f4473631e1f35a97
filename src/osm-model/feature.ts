/**
 * The OSM feature model: what the OSM store hands to the families and geometry builders, below both
 * the readers (src/sources/osm) and the builders (src/geometry). Coordinates are WGS84 lon/lat degrees.
 */

export type OsmTags = Record<string, string>;

/**
 * Coarse layer a feature is filed under in the store, so a tile query can ask only for what a
 * geometry group needs. Fine-grained meaning (roof shape, surface kind…) is parsed from `tags`
 * by the geometry modules.
 */
export type OsmLayer =
  | 'building' // building=* (not "no")
  | 'building_part' // building:part=* (not "no") without building=*
  | 'highway' // highway=*, area:highway=*
  | 'railway'
  | 'barrier'
  | 'water' // natural=water, waterway=*, water=*
  | 'landcover' // landuse/natural/leisure/amenity/surface areas
  | 'poi' // tagged nodes: trees, benches, street furniture…
  | 'other';

export interface OsmFeature {
  /** `node/<id>`, `way/<id>` or `relation/<id>`. */
  id: string;
  layer: OsmLayer;
  tags: OsmTags;
  /** point: one position; line: one open polyline; area: polygons with holes. */
  kind: 'point' | 'line' | 'area';
  /** kind=point: [lon, lat]. */
  point?: [number, number];
  /** kind=line: flat [lon0, lat0, lon1, lat1, …]. */
  line?: number[];
  /** kind=area: polygons, each [outer, ...holes], each ring flat [lon0, lat0, …] without the closing duplicate. */
  polygons?: number[][][];
  /**
   * The `type=building` relations (Simple 3D Buildings) this feature is a member of, with its role
   * there (`outline`, `part`, …) and the extent of all the relation's members in the store.
   * Absent when it belongs to none (or the store predates relations).
   */
  buildingRelation?: { id: string; role: 'outline' | 'part' | (string & {}); bbox: LonLatBBox }[];
}

export interface LonLatBBox {
  minLon: number;
  minLat: number;
  maxLon: number;
  maxLat: number;
}
