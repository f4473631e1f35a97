/**
 * Read side of the OSM store: bbox queries by layer against the SQLite file built by importOsm.
 * Each OsmStore owns one read-only connection; open one per worker thread.
 *
 *   const store = OsmStore.open('var/osm.sqlite');
 *   const buildings = store.query({ minLon: 7.416, minLat: 43.733, maxLon: 7.422, maxLat: 43.737 }, ['building']);
 *
 * Features that are members of `type=building` relations carry `buildingRelation` (see types.ts).
 */
import Database from 'better-sqlite3';
import { decodeGeometry } from './geometry-codec.ts';
import { OSM_LAYERS } from './layers.ts';
import {
  layerMask,
  QUERY_BBOX,
  QUERY_BUILDING_GROUPS,
  QUERY_BUILDING_RELATIONS,
  QUERY_GROUP_MEMBERS,
  READABLE_SCHEMA_VERSIONS,
  SCHEMA_VERSION,
} from './schema.ts';
import type { LonLatBBox, OsmFeature, OsmLayer } from '../../osm-model/feature.ts';
import type { BuildingGroupRef, OsmSource } from './types.ts';

type Row = [osmId: string, layer: OsmLayer, kind: OsmFeature['kind'], tags: string, geom: Buffer];
type GroupRow = [gid: number, repLon: number, repLat: number];
type MemberRow = [gid: number, ...Row];
type MembershipRow = [memberId: string, relationId: string, role: string, minLon: number, maxLon: number, minLat: number, maxLat: number];

const INT32_MAX = 2147483647;

function clampE7(v: number): number {
  return Math.max(-INT32_MAX - 1, Math.min(INT32_MAX, v));
}

function openReadOnly(dbPath: string): Database.Database {
  const db = new Database(dbPath, { readonly: true, fileMustExist: true });
  const version = db.pragma('user_version', { simple: true });
  if (typeof version !== 'number' || !READABLE_SCHEMA_VERSIONS.includes(version)) {
    db.close();
    throw new Error(`${dbPath}: OSM store schema version ${String(version)}, expected ${SCHEMA_VERSION}; re-run scripts/import-osm.ts`);
  }
  return db;
}

export class OsmStore implements OsmSource {
  private readonly queryStatement: Database.Statement;
  private readonly groupsStatement: Database.Statement;
  private readonly membersStatement: Database.Statement;
  /** Null when the store has no building relations (none in the extract, or an older store). */
  private readonly membershipStatement: Database.Statement | null;
  private readonly dataVersion: string;

  private constructor(private readonly db: Database.Database) {
    // a store is written once by an import and never changed after: the import's own record names it
    const meta = new Map((db.prepare('SELECT key, value FROM meta').all() as { key: string; value: string }[]).map((r) => [r.key, r.value]));
    this.dataVersion = `sqlite store v${String(db.pragma('user_version', { simple: true }))} ${meta.get('source_file') ?? ''} ${meta.get('data_timestamp') ?? ''} imported ${meta.get('imported_at') ?? ''}`;
    this.queryStatement = db.prepare(QUERY_BBOX).raw(true);
    this.groupsStatement = db.prepare(QUERY_BUILDING_GROUPS).raw(true);
    this.membersStatement = db.prepare(QUERY_GROUP_MEMBERS).raw(true);
    this.membershipStatement = hasBuildingRelations(db) ? db.prepare(QUERY_BUILDING_RELATIONS).raw(true) : null;
  }

  /** Opens a store read-only; throws when the file is missing or was built by another schema version. */
  static open(dbPath: string): OsmStore {
    const db = openReadOnly(dbPath);
    db.pragma('mmap_size = 268435456');
    return new OsmStore(db);
  }

  version(): string {
    return this.dataVersion;
  }

  /** Features of the given layers whose bbox intersects `bbox` (edges touching count), in import order. */
  query(bbox: LonLatBBox, layers: readonly OsmLayer[]): OsmFeature[] {
    const { minLon, minLat, maxLon, maxLat } = bbox;
    if (![minLon, minLat, maxLon, maxLat].every(Number.isFinite)) throw new RangeError('OsmStore.query: bbox must be finite');
    if (layers.length === 0 || minLon > maxLon || minLat > maxLat) return [];
    const rows = this.queryStatement.all({ ...boxE7(bbox), mask: layerMask(layers) }) as Row[];
    const features = rows.map(toFeature);
    if (this.membershipStatement && features.length > 0) this.addBuildingRelations(features, this.membershipStatement);
    return features;
  }

  /** Buildings (outline + parts, or a lone part) whose members' extent intersects `bbox`, without reading the members. */
  buildingGroups(bbox: LonLatBBox): BuildingGroupRef[] {
    if (![bbox.minLon, bbox.minLat, bbox.maxLon, bbox.maxLat].every(Number.isFinite)) throw new RangeError('OsmStore.buildingGroups: bbox must be finite');
    if (bbox.minLon > bbox.maxLon || bbox.minLat > bbox.maxLat) return [];
    return (this.groupsStatement.all(boxE7(bbox)) as GroupRow[]).map(([gid, repLon, repLat]) => ({ gid, rep: [repLon, repLat] }));
  }

  /** Members of the given groups: per gid, the principal feature first, then its parts. */
  buildingGroupMembers(gids: readonly number[]): Map<number, OsmFeature[]> {
    const out = new Map<number, OsmFeature[]>();
    if (gids.length === 0) return out;
    for (const [gid, ...row] of this.membersStatement.all(JSON.stringify(gids)) as MemberRow[]) {
      const feature = toFeature(row);
      const list = out.get(gid);
      if (list) list.push(feature);
      else out.set(gid, [feature]);
    }
    return out;
  }

  /** One indexed lookup for all returned ids. */
  private addBuildingRelations(features: OsmFeature[], statement: Database.Statement): void {
    const byId = new Map(features.map((f) => [f.id, f]));
    const rows = statement.all(JSON.stringify([...byId.keys()])) as MembershipRow[];
    for (const [memberId, relationId, role, minLon, maxLon, minLat, maxLat] of rows) {
      const feature = byId.get(memberId);
      if (!feature) continue;
      const bbox = { minLon: minLon / 1e7, minLat: minLat / 1e7, maxLon: maxLon / 1e7, maxLat: maxLat / 1e7 };
      (feature.buildingRelation ??= []).push({ id: relationId, role, bbox });
    }
  }

  close(): void {
    this.db.close();
  }
}

/** Stored bboxes are integers in 1e-7 degrees: rounding the query inwards keeps "intersects" exact. */
function boxE7({ minLon, minLat, maxLon, maxLat }: LonLatBBox) {
  return {
    minLon: clampE7(Math.ceil(minLon * 1e7)),
    maxLon: clampE7(Math.floor(maxLon * 1e7)),
    minLat: clampE7(Math.ceil(minLat * 1e7)),
    maxLat: clampE7(Math.floor(maxLat * 1e7)),
  };
}

function toFeature([id, layer, kind, tags, geom]: Row): OsmFeature {
  const geometry = decodeGeometry(geom);
  const feature: OsmFeature = { id, layer, kind, tags: JSON.parse(tags) };
  if (geometry.kind === 'point') feature.point = geometry.point;
  else if (geometry.kind === 'line') feature.line = geometry.line;
  else feature.polygons = geometry.polygons;
  return feature;
}

function hasBuildingRelations(db: Database.Database): boolean {
  const table = db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'building_relations'`).get();
  return table !== undefined && db.prepare('SELECT 1 FROM building_relations LIMIT 1').get() !== undefined;
}

/** Whether a store file exists and this code can read it (an older schema must be imported again). */
export function storeIsCurrent(dbPath: string): boolean {
  try {
    openReadOnly(dbPath).close();
    return true;
  } catch {
    return false;
  }
}

export interface OsmStoreInfo {
  /** File name of the .osm.pbf the store was imported from. */
  sourceFile: string;
  /** ISO time the import finished. */
  importedAt: string;
  /** Replication timestamp of the extract (ISO), when the PBF header had one. */
  dataTimestamp: string | null;
  counts: Record<OsmLayer, number>;
  total: number;
  /** type=building relations recorded (0 for a store that predates them). */
  buildingRelations: number;
}

/** Cheap summary of a store (per-layer counts come from the layer index). */
export function storeInfo(dbPath: string): OsmStoreInfo {
  const db = openReadOnly(dbPath);
  try {
    const meta = new Map((db.prepare('SELECT key, value FROM meta').all() as { key: string; value: string }[]).map((r) => [r.key, r.value]));
    const counts = Object.fromEntries(OSM_LAYERS.map((l) => [l, 0])) as Record<OsmLayer, number>;
    for (const row of db.prepare('SELECT layer, count(*) AS n FROM features GROUP BY layer').all() as { layer: OsmLayer; n: number }[]) {
      counts[row.layer] = row.n;
    }
    return {
      sourceFile: meta.get('source_file') ?? '',
      importedAt: meta.get('imported_at') ?? '',
      dataTimestamp: meta.get('data_timestamp') ?? null,
      counts,
      total: Object.values(counts).reduce((a, b) => a + b, 0),
      buildingRelations: hasBuildingRelations(db)
        ? (db.prepare('SELECT count(DISTINCT relation_id) AS n FROM building_relations').get() as { n: number }).n
        : 0,
    };
  } finally {
    db.close();
  }
}
