/**
 * Where an OSM store has data: the lon/lat box the import recorded (the extract's declared bounds
 * when its PBF header has them, else the box of its features), so a request outside it is told
 * so instead of getting empty groups in silence. Stores imported before the box was recorded get
 * it from their spatial index, once.
 */
import { statSync } from 'node:fs';
import Database from 'better-sqlite3';
import type { LonLatBBox } from '../../osm-model/feature.ts';

/** The meta key the import writes the extent under. */
export const EXTENT_META = 'extent';

export interface StoreExtent extends LonLatBBox {
  /** `header`: the extract's declared bounds; `features`: the box of what it holds. */
  from: 'header' | 'features';
}

/** The box of every feature in an open store (its rtree holds 1e-7 degree integers), or null when it holds none. */
export function featureExtentOf(db: Database.Database): LonLatBBox | null {
  const row = db.prepare('SELECT min(min_lon) AS w, min(min_lat) AS s, max(max_lon) AS e, max(max_lat) AS n FROM features_bbox').get() as
    | { w: number | null; s: number | null; e: number | null; n: number | null }
    | undefined;
  if (!row || row.w === null || row.s === null || row.e === null || row.n === null) return null;
  return { minLon: row.w * 1e-7, minLat: row.s * 1e-7, maxLon: row.e * 1e-7, maxLat: row.n * 1e-7 };
}

const cache = new Map<string, { mtimeMs: number; extent: StoreExtent | null }>();

/**
 * The extent of the store file at `dbPath`; null when there is no readable store there (a test's
 * fixture source, a store being built) — the caller then cannot tell, and says nothing.
 */
export function storeExtent(dbPath: string): StoreExtent | null {
  let mtimeMs: number;
  try {
    mtimeMs = statSync(dbPath).mtimeMs;
  } catch {
    return null;
  }
  const known = cache.get(dbPath);
  if (known && known.mtimeMs === mtimeMs) return known.extent;
  let extent: StoreExtent | null = null;
  try {
    const db = new Database(dbPath, { readonly: true, fileMustExist: true });
    try {
      const meta = db.prepare('SELECT value FROM meta WHERE key = ?').get(EXTENT_META) as { value: string } | undefined;
      if (meta) extent = JSON.parse(meta.value) as StoreExtent;
      else {
        const box = featureExtentOf(db);
        extent = box && { ...box, from: 'features' };
      }
    } finally {
      db.close();
    }
  } catch {
    extent = null;
  }
  cache.set(dbPath, { mtimeMs, extent });
  return extent;
}
