/**
 * The step after osm2pgsql (and after every replication update): computes from the feature tables
 * what the SQLite import computes at its end — each building outline with its parts (the same
 * groupBuildings over the same features in the same order, so the same groups, gids and anchor
 * points), the extent of each `type=building` relation — and records the store's extent and
 * layout version. One transaction: readers see the old groups until it commits, then the new ones
 * and a new store version together. It also installs the triggers that bump the store version
 * whenever osm2pgsql changes a feature table.
 *
 * Memory: every building's rings for the duration (as import-building-groups.ts).
 */
import pg from 'pg';
import { groupBuildings, isBuildingPart } from '../../../geometry/buildings/building-groups.ts';
import type { LonLatBBox } from '../../../osm-model/feature.ts';
import { OSM_LAYERS } from '../layers.ts';
import type { StoreExtent } from '../store-extent.ts';
import { featureFromRow, type FeatureRow, type StoredFeature } from './feature-rows.ts';
import { CREATE_DERIVED, featureTable, POSTGIS_SCHEMA_VERSION } from './sql.ts';

export interface PostImportOptions {
  /** The extract's declared bounds (from its PBF header); null: the box of the features. Kept from the last run when absent. */
  extent?: LonLatBBox | null;
  /** Facts to record in cc_meta (source file, import time…). */
  meta?: Record<string, string>;
  onProgress?: (message: string) => void;
}

export interface PostImportStats {
  buildingFeatures: number;
  buildingGroups: number;
  buildingRelations: number;
  storeVersion: string;
  seconds: number;
}

const BUILDING_ROWS = (['building', 'building_part'] as const)
  .map(
    (l) =>
      `SELECT '${l}' AS layer, osm_type, osm_id::text AS osm_id, kind, tags, way_members, ST_AsBinary(geom) AS wkb FROM ${featureTable(l)} WHERE kind = 'area'`,
  )
  .join('\nUNION ALL\n');

const RELATION_MEMBER_ROWS = OSM_LAYERS.map(
  (
    l,
  ) => `SELECT m.relation_id::text AS relation_id, '${l}' AS layer, f.osm_type, f.osm_id::text AS osm_id, f.kind, f.tags, f.way_members, ST_AsBinary(f.geom) AS wkb
FROM cc_building_relation_members m JOIN ${featureTable(l)} f ON f.osm_type = upper(left(m.member_type, 1)) AND f.osm_id = m.member_id`,
).join('\nUNION ALL\n');

/** Runs the post-import step on the database at `url`. */
export async function postImport(url: string, options: PostImportOptions = {}): Promise<PostImportStats> {
  const started = performance.now();
  const say = options.onProgress ?? (() => {});
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('BEGIN');
    await client.query(CREATE_DERIVED);
    say('reading buildings');
    const buildings = (await client.query<FeatureRow>(BUILDING_ROWS)).rows
      .map(featureFromRow)
      .filter((s): s is StoredFeature => s !== null)
      .sort((a, b) => a.order - b.order);
    const memberships = new Map<string, { id: string; role: string }[]>();
    const members = await client.query<{ member_type: string; member_id: string; relation_id: string; role: string }>(
      'SELECT member_type, member_id::text AS member_id, relation_id::text AS relation_id, role FROM cc_building_relation_members ORDER BY relation_id, seq',
    );
    for (const m of members.rows) {
      const key = `${m.member_type}/${m.member_id}`;
      const list = memberships.get(key) ?? [];
      list.push({ id: `relation/${m.relation_id}`, role: m.role });
      memberships.set(key, list);
    }
    say(`grouping ${buildings.length} buildings and parts`);
    const groups = groupBuildings(
      buildings.map((s) => ({ polygons: s.feature.polygons ?? [], isPart: isBuildingPart(s.feature.tags), relations: memberships.get(s.feature.id) ?? [] })),
    );
    await client.query('DELETE FROM cc_building_group_members; DELETE FROM cc_building_groups; DELETE FROM cc_building_relation_extents');
    await writeGroups(client, buildings, groups);
    say(`${groups.length} building groups written`);
    const relations = await writeRelationExtents(client);
    await writeMeta(client, options);
    const version = await client.query<{ version: string }>('UPDATE cc_store_version SET version = version + 1 RETURNING version::text AS version');
    await client.query('COMMIT');
    await client.query('ANALYZE cc_building_groups; ANALYZE cc_building_group_members');
    return {
      buildingFeatures: buildings.length,
      buildingGroups: groups.length,
      buildingRelations: relations,
      storeVersion: version.rows[0].version,
      seconds: (performance.now() - started) / 1000,
    };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    await client.end();
  }
}

const BATCH = 20_000;

async function writeGroups(client: pg.Client, buildings: readonly StoredFeature[], groups: ReturnType<typeof groupBuildings>): Promise<void> {
  const g: { gid: number[]; lon: number[]; lat: number[]; box: number[][] } = { gid: [], lon: [], lat: [], box: [[], [], [], []] };
  const m: { gid: number[]; seq: number[]; type: string[]; id: string[] } = { gid: [], seq: [], type: [], id: [] };
  const flush = async (last: boolean) => {
    if (g.gid.length >= BATCH || (last && g.gid.length > 0)) {
      await client.query(
        `INSERT INTO cc_building_groups (gid, rep_lon, rep_lat, min_lon7, min_lat7, max_lon7, max_lat7, bbox)
         SELECT gid, lon, lat, x0, y0, x1, y1, ST_MakeEnvelope(x0 / 1e7, y0 / 1e7, x1 / 1e7, y1 / 1e7, 4326)
         FROM unnest($1::int[], $2::float8[], $3::float8[], $4::int[], $5::int[], $6::int[], $7::int[]) AS t(gid, lon, lat, x0, y0, x1, y1)`,
        [g.gid, g.lon, g.lat, ...g.box],
      );
      await client.query(
        `INSERT INTO cc_building_group_members (gid, seq, osm_type, osm_id) SELECT * FROM unnest($1::int[], $2::int[], $3::char(1)[], $4::bigint[])`,
        [m.gid, m.seq, m.type, m.id],
      );
      for (const list of [g.gid, g.lon, g.lat, ...g.box, m.gid, m.seq, m.type, m.id]) list.length = 0;
    }
  };
  for (let n = 0; n < groups.length; n++) {
    const group = groups[n];
    const gid = n + 1;
    // the principal first, then its parts in import order (as the SQLite store lists them)
    const order = [group.principal, ...[...group.parts].sort((a, b) => buildings[a].order - buildings[b].order)];
    const box = [Infinity, Infinity, -Infinity, -Infinity];
    order.forEach((i, seq) => {
      const [type, id] = buildings[i].feature.id.split('/');
      m.gid.push(gid);
      m.seq.push(seq);
      m.type.push(type[0].toUpperCase());
      m.id.push(id);
      for (const polygon of buildings[i].feature.polygons ?? []) {
        const outer = polygon[0];
        for (let k = 0; k < outer.length; k += 2) {
          box[0] = Math.min(box[0], outer[k]);
          box[1] = Math.min(box[1], outer[k + 1]);
          box[2] = Math.max(box[2], outer[k]);
          box[3] = Math.max(box[3], outer[k + 1]);
        }
      }
    });
    g.gid.push(gid);
    g.lon.push(group.rep[0]);
    g.lat.push(group.rep[1]);
    box.forEach((v, k) => g.box[k].push(Math.round(v * 1e7)));
    await flush(false);
  }
  await flush(true);
}

/** The extent of each type=building relation's members in the store, as the SQLite import records it. */
async function writeRelationExtents(client: pg.Client): Promise<number> {
  const rows = (await client.query<FeatureRow & { relation_id: string }>(RELATION_MEMBER_ROWS)).rows;
  const extents = new Map<string, number[]>();
  for (const row of rows) {
    const s = featureFromRow(row);
    if (!s) continue;
    const e = extents.get(row.relation_id);
    if (!e) extents.set(row.relation_id, [...s.bbox7]);
    else {
      e[0] = Math.min(e[0], s.bbox7[0]);
      e[1] = Math.min(e[1], s.bbox7[1]);
      e[2] = Math.max(e[2], s.bbox7[2]);
      e[3] = Math.max(e[3], s.bbox7[3]);
    }
  }
  const ids = [...extents.keys()];
  const col = (k: number) => ids.map((id) => extents.get(id)![k]);
  await client.query(
    `INSERT INTO cc_building_relation_extents (relation_id, min_lon7, min_lat7, max_lon7, max_lat7) SELECT * FROM unnest($1::bigint[], $2::int[], $3::int[], $4::int[], $5::int[])`,
    [ids, col(0), col(1), col(2), col(3)],
  );
  return ids.length;
}

async function writeMeta(client: pg.Client, options: PostImportOptions): Promise<void> {
  const meta: Record<string, string> = { ...options.meta, schema_version: String(POSTGIS_SCHEMA_VERSION), refreshed_at: new Date().toISOString() };
  if (options.extent !== undefined) {
    const extent: StoreExtent | null = options.extent ? { ...options.extent, from: 'header' } : await featureExtent(client);
    if (extent) meta.extent = JSON.stringify(extent);
  }
  for (const [key, value] of Object.entries(meta)) {
    await client.query('INSERT INTO cc_meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value', [key, value]);
  }
}

async function featureExtent(client: pg.Client): Promise<StoreExtent | null> {
  const r = await client.query<{ w: number | null; s: number | null; e: number | null; n: number | null }>(
    `SELECT ST_XMin(b) AS w, ST_YMin(b) AS s, ST_XMax(b) AS e, ST_YMax(b) AS n FROM (SELECT ST_Extent(geom) AS b FROM (${OSM_LAYERS.map((l) => `SELECT geom FROM ${featureTable(l)}`).join(' UNION ALL ')}) f) x`,
  );
  const row = r.rows[0];
  if (!row || row.w === null || row.s === null || row.e === null || row.n === null) return null;
  return { minLon: row.w, minLat: row.s, maxLon: row.e, maxLat: row.n, from: 'features' };
}
