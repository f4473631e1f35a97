/**
 * Opens the premium store: creates it when missing, refuses a layout it does not know, and reads
 * datasets and buildings back. The writer side (one import = one transaction) is import.ts.
 */
import Database from 'better-sqlite3';
import { existsSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { CREATE_PREMIUM_SCHEMA, CREATE_PREPARED_MESHES, PREMIUM_SCHEMA_VERSION, QUERY_BUILDINGS_BBOX, QUERY_COVERAGE_BBOX } from './store-schema.ts';
import { decodeFootprint, decodeSurfaces, type LonLatPolygons, type StoredSurface } from './surface-codec.ts';
import type { PartDescriptor } from './building-record.ts';
import type { Lod } from './source-model.ts';

export interface PremiumDataset {
  id: string;
  name: string;
  license: string | null;
  attribution: string | null;
  url: string | null;
  country: string;
  crs: string;
  format: string;
  source: string;
  importedAt: string;
  buildingCount: number;
  partCount: number;
  surfaceCount: number;
  skippedCount: number;
  bbox: [number, number, number, number] | null;
}

export interface PremiumBuilding {
  dataset: string;
  id: string;
  name: string | null;
  lod: Lod;
  roofType: string | null;
  measuredHeight: number | null;
  minZ: number;
  maxZ: number;
  parts: PartDescriptor[];
  footprint: LonLatPolygons;
  surfaces: StoredSurface[];
}

/** Opens (creating when absent) the store for writing; throws when it has another layout version. */
export function openPremiumStore(path: string, options: { readonly?: boolean } = {}): Database.Database {
  if (options.readonly) {
    const db = new Database(path, { readonly: true, fileMustExist: true });
    checkVersion(db, path);
    return db;
  }
  const fresh = !existsSync(path);
  if (fresh) mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path);
  if (fresh) {
    db.pragma('journal_mode = WAL');
    db.exec(CREATE_PREMIUM_SCHEMA);
  }
  checkVersion(db, path);
  db.exec(CREATE_PREPARED_MESHES); // added to layout 1 later: created in older stores on their next write
  return db;
}

function checkVersion(db: Database.Database, path: string): void {
  const version = db.pragma('user_version', { simple: true }) as number;
  if (version !== PREMIUM_SCHEMA_VERSION) {
    db.close();
    throw new Error(`${path}: premium store layout ${version}, this version reads ${PREMIUM_SCHEMA_VERSION}; delete it and import the datasets again`);
  }
}

interface DatasetRow {
  id: string;
  name: string;
  license: string | null;
  attribution: string | null;
  url: string | null;
  country: string;
  crs: string;
  format: string;
  source: string;
  imported_at: string;
  building_count: number;
  part_count: number;
  surface_count: number;
  skipped_count: number;
  min_lon: number | null;
  min_lat: number | null;
  max_lon: number | null;
  max_lat: number | null;
}

export function listDatasets(db: Database.Database): PremiumDataset[] {
  return (db.prepare('SELECT * FROM datasets ORDER BY id').all() as DatasetRow[]).map((r) => ({
    id: r.id,
    name: r.name,
    license: r.license,
    attribution: r.attribution,
    url: r.url,
    country: r.country,
    crs: r.crs,
    format: r.format,
    source: r.source,
    importedAt: r.imported_at,
    buildingCount: r.building_count,
    partCount: r.part_count,
    surfaceCount: r.surface_count,
    skippedCount: r.skipped_count,
    bbox: r.min_lon === null || r.min_lat === null || r.max_lon === null || r.max_lat === null ? null : [r.min_lon, r.min_lat, r.max_lon, r.max_lat],
  }));
}

/** A coverage polygon of a dataset: lon/lat rings (flat, first outer, no closing point). */
export interface CoveragePolygon {
  dataset: string;
  polygon: LonLatPolygons[number];
}

const ringsOf = (json: string) => (JSON.parse(json) as number[][][]).map((ring) => ring.slice(0, -1).flat());

/** The coverage polygons whose box meets [minLon, minLat, maxLon, maxLat]; every dataset's when no box is given. */
export function coverageInBox(db: Database.Database, box: readonly [number, number, number, number] = [-180, -90, 180, 90]): CoveragePolygon[] {
  const rows = db.prepare(QUERY_COVERAGE_BBOX).all({
    minLon: Math.floor(box[0] * 1e7),
    minLat: Math.floor(box[1] * 1e7),
    maxLon: Math.ceil(box[2] * 1e7),
    maxLat: Math.ceil(box[3] * 1e7),
  }) as { dataset: string; polygon: string }[];
  return rows.map((r) => ({ dataset: r.dataset, polygon: ringsOf(r.polygon) }));
}

/** The import report (JSON) of a dataset, or null when the store does not hold it. */
export function datasetReport(db: Database.Database, id: string): unknown {
  const row = db.prepare('SELECT report FROM datasets WHERE id = ?').get(id) as { report: string } | undefined;
  return row ? JSON.parse(row.report) : null;
}

export interface BuildingRow {
  dataset: string;
  source_id: string;
  name: string | null;
  lod: number;
  roof_type: string | null;
  measured_height: number | null;
  min_z: number;
  max_z: number;
  parts: string;
  footprint: Buffer;
  surfaces: Buffer;
}

/** Buildings whose box meets [minLon, minLat, maxLon, maxLat], in import order. */
export function buildingsInBox(db: Database.Database, box: readonly [number, number, number, number]): PremiumBuilding[] {
  const rows = db.prepare(QUERY_BUILDINGS_BBOX).all({
    minLon: Math.floor(box[0] * 1e7),
    minLat: Math.floor(box[1] * 1e7),
    maxLon: Math.ceil(box[2] * 1e7),
    maxLat: Math.ceil(box[3] * 1e7),
  }) as BuildingRow[];
  return rows.map(buildingOfRow);
}

/** A stored building row (QUERY_BUILDINGS_BBOX's columns) decoded. */
export function buildingOfRow(r: BuildingRow): PremiumBuilding {
  return {
    dataset: r.dataset,
    id: r.source_id,
    name: r.name,
    lod: r.lod as Lod,
    roofType: r.roof_type,
    measuredHeight: r.measured_height,
    minZ: r.min_z,
    maxZ: r.max_z,
    parts: JSON.parse(r.parts) as PartDescriptor[],
    footprint: decodeFootprint(r.footprint),
    surfaces: decodeSurfaces(r.surfaces),
  };
}
