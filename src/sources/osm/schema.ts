/** SQLite layout of the OSM store, shared by the import (writer) and OsmStore (reader). */
import type { OsmLayer } from '../../osm-model/feature.ts';
import { OSM_LAYERS } from './layers.ts';

/** Bumped whenever the layout or the geometry encoding changes; OsmStore refuses versions it cannot read. */
export const SCHEMA_VERSION = 3;

/** Versions OsmStore reads. Older stores lack the building groups every tile relies on: re-import them. */
export const READABLE_SCHEMA_VERSIONS: readonly number[] = [3];

/**
 * features: one row per OSM feature. features_bbox: R*Tree over the exact integer bbox
 * (1e-7 degrees, rtree_i32 so no float rounding), with the layer as a bit for filtering inside the scan.
 * building_relations: one row per way/relation member of a `type=building` relation, with the
 * extent (1e-7 degrees) of all that relation's members in the store, NULL when none is.
 * building_groups: each building outline with its parts, or a part standing alone (decided once at
 * import, see import-building-groups.ts); features.group_id says which group a building feature is
 * in, rep_lon/rep_lat is a point inside the principal feature (the group's anchor candidate), and
 * building_groups_bbox indexes the extent of all the group's members.
 */
export const CREATE_SCHEMA = `
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE features (
  fid INTEGER PRIMARY KEY,
  osm_id TEXT NOT NULL,
  layer TEXT NOT NULL,
  kind TEXT NOT NULL,
  tags TEXT NOT NULL,
  geom BLOB NOT NULL,
  group_id INTEGER
);
CREATE VIRTUAL TABLE features_bbox USING rtree_i32(fid, min_lon, max_lon, min_lat, max_lat, +layer_bit);
CREATE TABLE building_relations (
  relation_id TEXT NOT NULL,
  member_id TEXT NOT NULL,
  role TEXT NOT NULL,
  min_lon INTEGER, max_lon INTEGER, min_lat INTEGER, max_lat INTEGER
);
CREATE TABLE building_groups (
  gid INTEGER PRIMARY KEY,
  principal_fid INTEGER NOT NULL,
  rep_lon REAL NOT NULL,
  rep_lat REAL NOT NULL
);
CREATE VIRTUAL TABLE building_groups_bbox USING rtree_i32(gid, min_lon, max_lon, min_lat, max_lat);
PRAGMA user_version = ${SCHEMA_VERSION};
`;

/** Built after the bulk insert, which is faster than maintaining it row by row. */
export const CREATE_INDEXES = `
CREATE INDEX features_layer ON features(layer);
CREATE INDEX building_relations_member ON building_relations(member_id);
CREATE INDEX features_group ON features(group_id);
`;

export const INSERT_FEATURE = `INSERT INTO features (fid, osm_id, layer, kind, tags, geom) VALUES (?, ?, ?, ?, ?, ?)`;
export const INSERT_BBOX = `INSERT INTO features_bbox (fid, min_lon, max_lon, min_lat, max_lat, layer_bit) VALUES (?, ?, ?, ?, ?, ?)`;
export const INSERT_BUILDING_RELATION_MEMBER = `INSERT INTO building_relations (relation_id, member_id, role, min_lon, max_lon, min_lat, max_lat) VALUES (?, ?, ?, ?, ?, ?, ?)`;

/** Relation memberships of the given feature ids (a JSON array), in relation then member order. */
export const QUERY_BUILDING_RELATIONS = `
SELECT member_id, relation_id, role, min_lon, max_lon, min_lat, max_lat
FROM building_relations
WHERE member_id IN (SELECT value FROM json_each(?)) AND min_lon IS NOT NULL
ORDER BY rowid`;

export const INSERT_BUILDING_GROUP = `INSERT INTO building_groups (gid, principal_fid, rep_lon, rep_lat) VALUES (?, ?, ?, ?)`;
export const INSERT_BUILDING_GROUP_BBOX = `INSERT INTO building_groups_bbox (gid, min_lon, max_lon, min_lat, max_lat) VALUES (?, ?, ?, ?, ?)`;
export const SET_FEATURE_GROUP = `UPDATE features SET group_id = ? WHERE fid = ?`;

/** Building features (both layers) with their fid, for grouping at import. */
export const SELECT_BUILDING_FEATURES = `
SELECT fid, osm_id, tags, geom FROM features WHERE layer IN ('building', 'building_part') AND kind = 'area' ORDER BY fid`;

/** Building groups whose members' extent intersects the query box, by gid. */
export const QUERY_BUILDING_GROUPS = `
SELECT g.gid, g.rep_lon, g.rep_lat
FROM building_groups_bbox b JOIN building_groups g ON g.gid = b.gid
WHERE b.min_lon <= @maxLon AND b.max_lon >= @minLon AND b.min_lat <= @maxLat AND b.max_lat >= @minLat
ORDER BY g.gid`;

/** Members of the given groups (a JSON array of gids): per group the principal first, then parts in import order. */
export const QUERY_GROUP_MEMBERS = `
SELECT f.group_id, f.osm_id, f.layer, f.kind, f.tags, f.geom
FROM features f JOIN building_groups g ON g.gid = f.group_id
WHERE f.group_id IN (SELECT value FROM json_each(?))
ORDER BY f.group_id, f.fid <> g.principal_fid, f.fid`;

/** Rows whose bbox intersects the query box and whose layer bit is in the mask, in import order. */
export const QUERY_BBOX = `
SELECT f.osm_id, f.layer, f.kind, f.tags, f.geom
FROM features_bbox b JOIN features f ON f.fid = b.fid
WHERE b.min_lon <= @maxLon AND b.max_lon >= @minLon AND b.min_lat <= @maxLat AND b.max_lat >= @minLat
  AND (b.layer_bit & @mask) != 0
ORDER BY b.fid`;

export function layerBit(layer: OsmLayer): number {
  return 1 << OSM_LAYERS.indexOf(layer);
}

export function layerMask(layers: readonly OsmLayer[]): number {
  let mask = 0;
  for (const layer of layers) {
    const i = OSM_LAYERS.indexOf(layer);
    if (i < 0) throw new Error(`unknown OSM layer: ${String(layer)}`);
    mask |= 1 << i;
  }
  return mask;
}
