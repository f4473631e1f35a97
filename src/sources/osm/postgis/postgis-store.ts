/**
 * Reads the PostGIS store (osm2pgsql with scripts/postgis/city-context.lua, then post-import.ts)
 * region by region: every feature of some layers whose box meets a lon/lat box, and optionally the
 * building groups meeting it with all their members. A small pg pool per instance; open one per
 * thread (tile workers each hold their own).
 *
 *   const store = PostgisStore.open('postgres://…/osm');
 *   const region = await store.fetchRegion(box, { layers: OSM_LAYERS, groups: true });
 */
import pg from 'pg';
import type { LonLatBBox, OsmLayer } from '../../../osm-model/feature.ts';
import type { StoreExtent } from '../store-extent.ts';
import { featureFromRow, featureIdOf, type FeatureRow, type StoredFeature } from './feature-rows.ts';
import {
  BUILDING_RELATIONS_IN_BOX,
  featuresInBoxesSql,
  featuresInBoxSql,
  GROUP_MEMBERS_IN_BOX,
  GROUP_MEMBERS_IN_BOX_FULL,
  POSTGIS_SCHEMA_VERSION,
  STORE_VERSION,
} from './sql.ts';

/** A building group as stored: its anchor point and the exact box (1e-7 degrees) of its members' outer rings. */
export interface StoredGroup {
  gid: number;
  rep: [number, number];
  bbox7: [number, number, number, number];
}

/** What one read brought back, and what it covers: `layers` and (with `groups`) the building groups, over `box`. */
export interface Region {
  box: LonLatBBox;
  layers: OsmLayer[];
  features: StoredFeature[];
  /** The store version read before the region, when asked for. */
  version?: string;
  /** Null when the groups were not asked for. */
  groups: { list: StoredGroup[]; members: [gid: number, members: StoredFeature[]][] } | null;
}

export interface RegionRequest {
  layers: readonly OsmLayer[];
  groups: boolean;
  /** Leave out the features meeting this box: the caller has them from another region (of the same layers). */
  except?: LonLatBBox;
  /** Read the store version first (Region.version): what the region holds is at least as new as it. */
  withVersion?: boolean;
}

/** Whether an OSM store setting names a PostgreSQL database rather than a SQLite file. */
export function isPostgresStore(path: string): boolean {
  return /^postgres(ql)?:\/\//i.test(path);
}

interface GroupRow {
  gid: number;
  rep_lon: number;
  rep_lat: number;
  min_lon7: number;
  min_lat7: number;
  max_lon7: number;
  max_lat7: number;
}

interface RelationRow {
  member_type: string;
  member_id: string;
  relation_id: string;
  role: string;
  min_lon7: number;
  min_lat7: number;
  max_lon7: number;
  max_lat7: number;
}

const MEMBER_TYPE_OF: Record<string, string> = { node: 'node', way: 'way', relation: 'relation' };

export class PostgisStore {
  private checked: Promise<void> | null = null;

  private constructor(private readonly pool: pg.Pool) {}

  /** A store on the database at `url` with a pool of `connections` (2: a region's queries run side by side). */
  static open(url: string, connections = 2): PostgisStore {
    const pool = new pg.Pool({ connectionString: url, max: connections, idleTimeoutMillis: 30_000, allowExitOnIdle: true });
    // a dropped idle connection must not take the process down; the next query opens another
    pool.on('error', () => {});
    return new PostgisStore(pool);
  }

  /** Throws unless the post-import step has run on this database with this code's layout. */
  private ready(): Promise<void> {
    this.checked ??= this.pool
      .query<{ value: string }>(`SELECT value FROM cc_meta WHERE key = 'schema_version'`)
      .then((r) => {
        const v = Number(r.rows[0]?.value);
        if (v !== POSTGIS_SCHEMA_VERSION)
          throw new Error(`OSM store on PostGIS: schema version ${String(r.rows[0]?.value)}, expected ${POSTGIS_SCHEMA_VERSION}; run npm run import-postgis`);
      })
      .catch((error: unknown) => {
        this.checked = null;
        throw error;
      });
    return this.checked;
  }

  async fetchRegion(box: LonLatBBox, request: RegionRequest): Promise<Region> {
    await this.ready();
    const version = request.withVersion ? await this.storeVersion() : undefined;
    const env = [box.minLon, box.minLat, box.maxLon, box.maxLat];
    const { except } = request;
    const withBuildings = request.layers.includes('building') && request.layers.includes('building_part') && !except;
    const [features, relations, members] = await Promise.all([
      request.layers.length > 0
        ? this.pool.query<FeatureRow>(
            featuresInBoxSql(request.layers, !!except),
            except ? [...env, except.minLon, except.minLat, except.maxLon, except.maxLat] : env,
          )
        : null,
      request.layers.length > 0 ? this.pool.query<RelationRow>(BUILDING_RELATIONS_IN_BOX, boxE7(box)) : null,
      request.groups ? this.pool.query<MemberRow>(withBuildings ? GROUP_MEMBERS_IN_BOX : GROUP_MEMBERS_IN_BOX_FULL, env) : null,
    ]);
    const stored: StoredFeature[] = [];
    for (const row of features?.rows ?? []) {
      const s = featureFromRow(row);
      if (s) stored.push(s);
    }
    attachBuildingRelations(stored, relations?.rows ?? []);
    return {
      box,
      layers: [...request.layers],
      features: stored,
      version,
      groups: members ? { list: groupsOf(members.rows), members: groupMembers(members.rows, stored) } : null,
    };
  }

  /** Features of `layers` in any of `boxes`, in one query (a region per box; they share the features). */
  async fetchBoxes(boxes: readonly LonLatBBox[], layers: readonly OsmLayer[]): Promise<Region[]> {
    await this.ready();
    if (boxes.length === 0 || layers.length === 0) return [];
    const columns = [0, 1, 2, 3].map((k) => boxes.map((b) => [b.minLon, b.minLat, b.maxLon, b.maxLat][k]));
    const union = boxes.reduce((u, b) => ({
      minLon: Math.min(u.minLon, b.minLon),
      minLat: Math.min(u.minLat, b.minLat),
      maxLon: Math.max(u.maxLon, b.maxLon),
      maxLat: Math.max(u.maxLat, b.maxLat),
    }));
    const [features, relations] = await Promise.all([
      this.pool.query<FeatureRow>(featuresInBoxesSql(layers), columns),
      this.pool.query<RelationRow>(BUILDING_RELATIONS_IN_BOX, boxE7(union)),
    ]);
    const seen = new Set<string>();
    const stored: StoredFeature[] = [];
    for (const row of features.rows) {
      const key = row.osm_type + row.osm_id;
      if (seen.has(key)) continue;
      seen.add(key);
      const s = featureFromRow(row);
      if (s) stored.push(s);
    }
    attachBuildingRelations(stored, relations.rows);
    return boxes.map((box) => ({ box, layers: [...layers], features: stored, groups: null }));
  }

  /** The store's version: changes whenever the features or the derived tables change (read it to key a cache). */
  async storeVersion(): Promise<string> {
    const r = await this.pool.query<{ version: string }>(STORE_VERSION);
    return r.rows[0]?.version ?? '0';
  }

  /** The extent the import recorded (the extract's declared bounds, else the box of its features). */
  async extent(): Promise<StoreExtent | null> {
    await this.ready();
    const r = await this.pool.query<{ value: string }>(`SELECT value FROM cc_meta WHERE key = 'extent'`);
    return r.rows[0] ? (JSON.parse(r.rows[0].value) as StoreExtent) : null;
  }

  /** The anchor of the middle building group (by gid), where warm-ups centre their requests; null when there is none. */
  async middleGroupRep(): Promise<[number, number] | null> {
    await this.ready();
    const r = await this.pool.query<{ rep_lon: number; rep_lat: number }>(
      'SELECT rep_lon, rep_lat FROM cc_building_groups ORDER BY gid OFFSET (SELECT count(*) / 2 FROM cc_building_groups) LIMIT 1',
    );
    return r.rows[0] ? [r.rows[0].rep_lon, r.rows[0].rep_lat] : null;
  }

  close(): Promise<void> {
    return this.pool.end();
  }
}

/** The groups of the member rows, each once. */
function groupsOf(rows: readonly GroupRow[]): StoredGroup[] {
  const out = new Map<number, StoredGroup>();
  for (const r of rows)
    if (!out.has(r.gid)) out.set(r.gid, { gid: r.gid, rep: [r.rep_lon, r.rep_lat], bbox7: [r.min_lon7, r.min_lat7, r.max_lon7, r.max_lat7] });
  return [...out.values()];
}

type MemberRow = Omit<FeatureRow, 'wkb' | 'tags'> & GroupRow & { seq: number; wkb: Uint8Array | null; tags: FeatureRow['tags'] | null };

/**
 * Members by group; those the features of the same read hold come without geometry and are taken
 * from there (read by a concurrent query: one committed a moment apart may lack it, and the tile
 * then builds that group without it).
 */
function groupMembers(rows: readonly MemberRow[], read: readonly StoredFeature[]): [number, StoredFeature[]][] {
  const sorted = [...rows].sort((a, b) => a.gid - b.gid || a.seq - b.seq);
  const byId = new Map(read.map((s) => [s.feature.id, s]));
  const out = new Map<number, StoredFeature[]>();
  for (const row of sorted) {
    const s = row.wkb && row.tags ? featureFromRow({ ...row, wkb: row.wkb, tags: row.tags }) : (byId.get(featureIdOf(row.osm_type, row.osm_id)) ?? null);
    if (!s) continue;
    const list = out.get(row.gid);
    if (list) list.push(s);
    else out.set(row.gid, [s]);
  }
  return [...out];
}

/** Memberships arrive by relation then member order, as the SQLite store lists them. */
function attachBuildingRelations(features: readonly StoredFeature[], rows: readonly RelationRow[]): void {
  if (rows.length === 0) return;
  const byId = new Map(features.map((s) => [s.feature.id, s.feature]));
  for (const r of rows) {
    const feature = byId.get(`${MEMBER_TYPE_OF[r.member_type]}/${r.member_id}`);
    if (!feature) continue;
    const bbox = { minLon: r.min_lon7 / 1e7, minLat: r.min_lat7 / 1e7, maxLon: r.max_lon7 / 1e7, maxLat: r.max_lat7 / 1e7 };
    (feature.buildingRelation ??= []).push({ id: `relation/${r.relation_id}`, role: r.role, bbox });
  }
}

/** The box in whole 1e-7 degrees, rounded inwards as the SQLite store rounds its queries. */
export function boxE7({ minLon, minLat, maxLon, maxLat }: LonLatBBox): [number, number, number, number] {
  return [clampE7(Math.ceil(minLon * 1e7)), clampE7(Math.ceil(minLat * 1e7)), clampE7(Math.floor(maxLon * 1e7)), clampE7(Math.floor(maxLat * 1e7))];
}

const INT32_MAX = 2147483647;

function clampE7(v: number): number {
  return Math.max(-INT32_MAX - 1, Math.min(INT32_MAX, v));
}
