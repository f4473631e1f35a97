/**
 * The PostGIS store's layout: the feature tables osm2pgsql fills (scripts/postgis/city-context.lua,
 * one per layer) and the tables the post-import step derives from them (post-import.ts), with the
 * queries the reader runs. Coordinates are EPSG:4326; the *_7 columns are whole 1e-7 degrees, as
 * the SQLite store keeps its boxes, so "intersects" is decided exactly as there.
 */
import type { OsmLayer } from '../../../osm-model/feature.ts';
import { OSM_LAYERS } from '../layers.ts';

export const featureTable = (layer: OsmLayer) => `cc_osm_${layer}`;

/** Bumped when the derived tables change shape; the reader refuses a database whose post-step wrote another. */
export const POSTGIS_SCHEMA_VERSION = 1;

/**
 * cc_meta: key/value facts of the import (source file, extent, schema version).
 * cc_store_version: one row, bumped in the same transaction as any change to the feature tables
 * (a deferred trigger, once per transaction) and by every post-step run — what caches key on.
 * cc_building_groups / cc_building_group_members: each outline with its parts, or a lone part
 * (import-building-groups.ts); seq 0 is the principal. cc_building_relation_extents: the box of all
 * members in the store of each `type=building` relation.
 */
export const CREATE_DERIVED = `
CREATE TABLE IF NOT EXISTS cc_meta (key text PRIMARY KEY, value text NOT NULL);
CREATE TABLE IF NOT EXISTS cc_store_version (one boolean PRIMARY KEY DEFAULT true CHECK (one), version bigint NOT NULL);
INSERT INTO cc_store_version (version) VALUES (0) ON CONFLICT DO NOTHING;
CREATE TABLE IF NOT EXISTS cc_building_groups (
  gid int PRIMARY KEY,
  rep_lon float8 NOT NULL, rep_lat float8 NOT NULL,
  min_lon7 int NOT NULL, min_lat7 int NOT NULL, max_lon7 int NOT NULL, max_lat7 int NOT NULL,
  bbox geometry(Polygon, 4326) NOT NULL
);
CREATE INDEX IF NOT EXISTS cc_building_groups_bbox ON cc_building_groups USING gist (bbox);
CREATE TABLE IF NOT EXISTS cc_building_group_members (gid int NOT NULL, seq int NOT NULL, osm_type char(1) NOT NULL, osm_id bigint NOT NULL, PRIMARY KEY (gid, seq));
CREATE TABLE IF NOT EXISTS cc_building_relation_extents (relation_id bigint PRIMARY KEY, min_lon7 int NOT NULL, min_lat7 int NOT NULL, max_lon7 int NOT NULL, max_lat7 int NOT NULL);
CREATE INDEX IF NOT EXISTS cc_building_relation_members_member ON cc_building_relation_members (member_type, member_id);
-- osm2pgsql indexes the id of tables with a geometry only: replication deletes members by relation
CREATE INDEX IF NOT EXISTS cc_building_relation_members_relation ON cc_building_relation_members (relation_id);
CREATE OR REPLACE FUNCTION cc_bump_store_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- once per transaction, at its commit: the new version is seen together with the data it stands for
  IF current_setting('city_context.bumped_in', true) IS DISTINCT FROM txid_current()::text THEN
    UPDATE cc_store_version SET version = version + 1;
    PERFORM set_config('city_context.bumped_in', txid_current()::text, true);
  END IF;
  RETURN NULL;
END $$;
${[...OSM_LAYERS.map(featureTable), 'cc_building_relation_members']
  .map(
    (t) => `DROP TRIGGER IF EXISTS cc_bump_store_version ON ${t};
CREATE CONSTRAINT TRIGGER cc_bump_store_version AFTER INSERT OR UPDATE OR DELETE ON ${t} DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION cc_bump_store_version();`,
  )
  .join('\n')}
`;

const FEATURE_COLUMNS = 'osm_type, osm_id::text AS osm_id, kind, tags, way_members, ST_AsBinary(geom) AS wkb';

/**
 * Rows of the given layers whose geometry box meets the envelope $1..$4 (a superset: float boxes;
 * the caller filters exactly); with `except`, not those meeting the envelope $5..$8 (the caller read them already).
 */
export function featuresInBoxSql(layers: readonly OsmLayer[], except = false): string {
  const but = except ? ' AND NOT geom && ST_MakeEnvelope($5, $6, $7, $8, 4326)' : '';
  return layers
    .map((l) => `SELECT '${l}' AS layer, ${FEATURE_COLUMNS} FROM ${featureTable(l)} WHERE geom && ST_MakeEnvelope($1, $2, $3, $4, 4326)${but}`)
    .join('\nUNION ALL\n');
}

/** Rows of the given layers whose geometry box meets any of the envelopes given as four arrays $1..$4 (min lon, min lat, max lon, max lat); a row may come twice. */
export function featuresInBoxesSql(layers: readonly OsmLayer[]): string {
  return layers
    .map(
      (l) => `SELECT '${l}' AS layer, ${FEATURE_COLUMNS}
FROM unnest($1::float8[], $2::float8[], $3::float8[], $4::float8[]) AS b(x0, y0, x1, y1)
JOIN ${featureTable(l)} ON geom && ST_MakeEnvelope(b.x0, b.y0, b.x1, b.y1, 4326)`,
    )
    .join('\nUNION ALL\n');
}

/** Groups whose box meets the envelope $1..$4. */
export const GROUPS_IN_BOX = `
SELECT gid, rep_lon, rep_lat, min_lon7, min_lat7, max_lon7, max_lat7
FROM cc_building_groups WHERE bbox && ST_MakeEnvelope($1, $2, $3, $4, 4326)`;

/**
 * Members of the groups whose box meets the envelope $1..$4, with their group's anchor and box (one
 * query, one round trip, for both). Without tags and
 * geometry (NULL) where the member itself meets the envelope: the features read of the same box have it.
 */
export const GROUP_MEMBERS_IN_BOX = (['building', 'building_part'] as const)
  .map(
    (
      l,
    ) => `SELECT m.gid, m.seq, g.rep_lon, g.rep_lat, g.min_lon7, g.min_lat7, g.max_lon7, g.max_lat7, '${l}' AS layer, f.osm_type, f.osm_id::text AS osm_id, f.kind, f.way_members,
  CASE WHEN f.geom && ST_MakeEnvelope($1, $2, $3, $4, 4326) THEN NULL ELSE f.tags END AS tags,
  CASE WHEN f.geom && ST_MakeEnvelope($1, $2, $3, $4, 4326) THEN NULL ELSE ST_AsBinary(f.geom) END AS wkb
FROM cc_building_groups g JOIN cc_building_group_members m ON m.gid = g.gid
JOIN ${featureTable(l)} f ON f.osm_type = m.osm_type AND f.osm_id = m.osm_id
WHERE g.bbox && ST_MakeEnvelope($1, $2, $3, $4, 4326)`,
  )
  .join('\nUNION ALL\n');

/** GROUP_MEMBERS_IN_BOX with every member's tags and geometry (a read without the building layers). */
export const GROUP_MEMBERS_IN_BOX_FULL = GROUP_MEMBERS_IN_BOX.replace(
  /CASE WHEN f\.geom && ST_MakeEnvelope\(\$1, \$2, \$3, \$4, 4326\) THEN NULL ELSE (f\.tags|ST_AsBinary\(f\.geom\)) END/g,
  '$1',
);

/**
 * Building relation memberships of every relation whose extent meets the box $1..$4 (1e-7 degrees:
 * min lon, min lat, max lon, max lat) — a member in the box lies in its relation's extent; by
 * relation, then member order.
 */
export const BUILDING_RELATIONS_IN_BOX = `
SELECT m.member_type, m.member_id::text AS member_id, m.relation_id::text AS relation_id, m.role, e.min_lon7, e.min_lat7, e.max_lon7, e.max_lat7
FROM cc_building_relation_extents e JOIN cc_building_relation_members m ON m.relation_id = e.relation_id
WHERE e.min_lon7 <= $3 AND e.max_lon7 >= $1 AND e.min_lat7 <= $4 AND e.max_lat7 >= $2
ORDER BY m.relation_id, m.seq`;

export const STORE_VERSION = 'SELECT version::text AS version FROM cc_store_version';
