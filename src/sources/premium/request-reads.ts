/**
 * What a request reads from the premium store: the datasets it holds (planning, main thread), which
 * of them cover a box (their coverage polygons, no building read), the footprints around a box
 * (the OSM merge and the one-owner rule need nothing more) and, for the buildings a tile builds,
 * the whole stored building. One read-only handle per store path and thread.
 */
import type Database from 'better-sqlite3';
import { existsSync } from 'node:fs';
import { buildingOfRow, coverageInBox, listDatasets, openPremiumStore, type BuildingRow, type PremiumBuilding, type PremiumDataset } from './store.ts';
import { decodeFootprint, type LonLatPolygons } from './surface-codec.ts';
import { hasPreparedMeshes } from './prepared-meshes.ts';

export type LonLatBox = readonly [number, number, number, number];

const handles = new Map<string, Database.Database>();

/** The store at `path`, read-only, opened once per thread; null when there is no store file. */
export function premiumReader(path: string): Database.Database | null {
  let db = handles.get(path);
  if (!db) {
    if (!existsSync(path)) return null;
    db = openPremiumStore(path, { readonly: true });
    handles.set(path, db);
  }
  return db;
}

/** The datasets of the store at `path` (none when there is no store). Read each time: an import may add one while the service runs. */
export function premiumDatasetsAt(path: string): PremiumDataset[] {
  const db = premiumReader(path);
  return db ? listDatasets(db) : [];
}

/** The datasets among `allowed` whose coverage polygons' boxes meet `box`, sorted. */
export function datasetsCovering(db: Database.Database, box: LonLatBox, allowed: ReadonlySet<string>): string[] {
  const found = new Set<string>();
  for (const c of coverageInBox(db, box)) if (allowed.has(c.dataset)) found.add(c.dataset);
  return [...found].sort();
}

/** A stored building's footprint and box, without its surfaces. */
export interface PremiumFootprint {
  bid: number;
  dataset: string;
  id: string;
  footprint: LonLatPolygons;
  /** [minLon, minLat, maxLon, maxLat], the store's R-tree box (1e-7 degrees, rounded outwards). */
  box: LonLatBox;
  /** The anchor its meshes were prepared at (prepared-meshes.ts); null when they were not. */
  anchor: [number, number] | null;
}

const QUERY_FOOTPRINTS = `
SELECT b.bid, b.dataset, b.source_id, b.footprint, r.min_lon, r.min_lat, r.max_lon, r.max_lat, NULL AS anchor_lon, NULL AS anchor_lat
FROM buildings_bbox r JOIN buildings b ON b.bid = r.bid
WHERE r.min_lon <= @maxLon AND r.max_lon >= @minLon AND r.min_lat <= @maxLat AND r.max_lat >= @minLat
ORDER BY b.bid`;
const QUERY_FOOTPRINTS_ANCHORS = `
SELECT b.bid, b.dataset, b.source_id, b.footprint, r.min_lon, r.min_lat, r.max_lon, r.max_lat, m.anchor_lon, m.anchor_lat
FROM buildings_bbox r JOIN buildings b ON b.bid = r.bid LEFT JOIN building_meshes m ON m.bid = b.bid
WHERE r.min_lon <= @maxLon AND r.max_lon >= @minLon AND r.min_lat <= @maxLat AND r.max_lat >= @minLat
ORDER BY b.bid`;

/** Footprints of the buildings of `datasets` whose box meets `box`, in import order. */
export function footprintsInBox(db: Database.Database, box: LonLatBox, datasets: ReadonlySet<string>): PremiumFootprint[] {
  const rows = db.prepare(hasPreparedMeshes(db) ? QUERY_FOOTPRINTS_ANCHORS : QUERY_FOOTPRINTS).all(boxParams(box)) as {
    bid: number;
    dataset: string;
    source_id: string;
    footprint: Buffer;
    min_lon: number;
    min_lat: number;
    max_lon: number;
    max_lat: number;
    anchor_lon: number | null;
    anchor_lat: number | null;
  }[];
  const out: PremiumFootprint[] = [];
  for (const r of rows) {
    if (!datasets.has(r.dataset)) continue;
    out.push({
      bid: r.bid,
      dataset: r.dataset,
      id: r.source_id,
      footprint: decodeFootprint(r.footprint),
      box: [r.min_lon / 1e7, r.min_lat / 1e7, r.max_lon / 1e7, r.max_lat / 1e7],
      anchor: r.anchor_lon === null || r.anchor_lat === null ? null : [r.anchor_lon, r.anchor_lat],
    });
  }
  return out;
}

/** Whole stored buildings by row id. */
export function buildingsByBid(db: Database.Database, bids: readonly number[]): Map<number, PremiumBuilding> {
  const out = new Map<number, PremiumBuilding>();
  if (bids.length === 0) return out;
  const get = db.prepare(
    'SELECT bid, dataset, source_id, name, lod, roof_type, measured_height, min_z, max_z, parts, footprint, surfaces FROM buildings WHERE bid = ?',
  );
  for (const bid of bids) {
    const row = get.get(bid) as BuildingRow | undefined;
    if (row) out.set(bid, buildingOfRow(row));
  }
  return out;
}

function boxParams(box: LonLatBox) {
  return { minLon: Math.floor(box[0] * 1e7), minLat: Math.floor(box[1] * 1e7), maxLon: Math.ceil(box[2] * 1e7), maxLat: Math.ceil(box[3] * 1e7) };
}
