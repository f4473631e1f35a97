/**
 * Read side of the OSM store: bbox queries by layer against the SQLite file built by importOsm.
 * Each OsmStore owns one read-only connection; open one per worker thread.
 *
 *   const store = OsmStore.open('var/osm.sqlite');
 *   const buildings = store.query({ minLon: 7.416, minLat: 43.733, maxLon: 7.422, maxLat: 43.737 }, ['building']);
 */
import Database from 'better-sqlite3';
import { decodeGeometry } from './geometry-codec.ts';
import { OSM_LAYERS } from './layers.ts';
import { layerMask, QUERY_BBOX, SCHEMA_VERSION } from './schema.ts';
import type { LonLatBBox, OsmFeature, OsmLayer, OsmSource } from './types.ts';

type Row = [osmId: string, layer: OsmLayer, kind: OsmFeature['kind'], tags: string, geom: Buffer];

const INT32_MAX = 2147483647;

function clampE7(v: number): number {
  return Math.max(-INT32_MAX - 1, Math.min(INT32_MAX, v));
}

function openReadOnly(dbPath: string): Database.Database {
  const db = new Database(dbPath, { readonly: true, fileMustExist: true });
  const version = db.pragma('user_version', { simple: true });
  if (version !== SCHEMA_VERSION) {
    db.close();
    throw new Error(`${dbPath}: OSM store schema version ${String(version)}, expected ${SCHEMA_VERSION}; re-run scripts/import-osm.ts`);
  }
  return db;
}

export class OsmStore implements OsmSource {
  private readonly queryStatement: Database.Statement;

  private constructor(private readonly db: Database.Database) {
    this.queryStatement = db.prepare(QUERY_BBOX).raw(true);
  }

  /** Opens a store read-only; throws when the file is missing or was built by another schema version. */
  static open(dbPath: string): OsmStore {
    const db = openReadOnly(dbPath);
    db.pragma('mmap_size = 268435456');
    return new OsmStore(db);
  }

  /** Features of the given layers whose bbox intersects `bbox` (edges touching count), in import order. */
  query(bbox: LonLatBBox, layers: readonly OsmLayer[]): OsmFeature[] {
    const { minLon, minLat, maxLon, maxLat } = bbox;
    if (![minLon, minLat, maxLon, maxLat].every(Number.isFinite)) throw new RangeError('OsmStore.query: bbox must be finite');
    if (layers.length === 0 || minLon > maxLon || minLat > maxLat) return [];
    // Stored bboxes are integers in 1e-7 degrees: rounding the query inwards keeps "intersects" exact.
    const rows = this.queryStatement.all({
      minLon: clampE7(Math.ceil(minLon * 1e7)),
      maxLon: clampE7(Math.floor(maxLon * 1e7)),
      minLat: clampE7(Math.ceil(minLat * 1e7)),
      maxLat: clampE7(Math.floor(maxLat * 1e7)),
      mask: layerMask(layers),
    }) as Row[];
    return rows.map(toFeature);
  }

  close(): void {
    this.db.close();
  }
}

function toFeature([id, layer, kind, tags, geom]: Row): OsmFeature {
  const geometry = decodeGeometry(geom);
  const feature: OsmFeature = { id, layer, kind, tags: JSON.parse(tags) };
  if (geometry.kind === 'point') feature.point = geometry.point;
  else if (geometry.kind === 'line') feature.line = geometry.line;
  else feature.polygons = geometry.polygons;
  return feature;
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
    };
  } finally {
    db.close();
  }
}
