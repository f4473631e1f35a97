/**
 * SQLite layout of the premium building store (premium.sqlite beside osm.sqlite), shared by the
 * import (writer) and the readers. Several datasets live in one store; each import replaces one
 * dataset in a single transaction. docs/premium-data.md describes it.
 */

/** Bumped whenever the layout or the blob encoding changes; the store refuses other versions. */
export const PREMIUM_SCHEMA_VERSION = 1;

/**
 * datasets: one row per imported dataset with its credits, country/region code, counts, box and
 * the import report (JSON).
 * coverage: where each dataset has buildings (footprints grown by COVERAGE_MARGIN, simplified), one
 * row per polygon as GeoJSON Polygon coordinates, with coverage_bbox indexing their boxes, so a
 * request finds the datasets around it without reading buildings or a country's whole outline.
 * buildings: one row per building; parts is a JSON array of descriptors; footprint and surfaces are
 * blobs (surface-codec.ts); min_z/max_z are absolute heights as in the file.
 * buildings_bbox: R*Tree over each building's box in 1e-7 degrees (rounded outwards).
 */
export const CREATE_PREMIUM_SCHEMA = `
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE datasets (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  license TEXT,
  attribution TEXT,
  url TEXT,
  country TEXT NOT NULL,
  crs TEXT NOT NULL,
  format TEXT NOT NULL,
  source TEXT NOT NULL,
  imported_at TEXT NOT NULL,
  building_count INTEGER NOT NULL,
  part_count INTEGER NOT NULL,
  surface_count INTEGER NOT NULL,
  skipped_count INTEGER NOT NULL,
  min_lon REAL, min_lat REAL, max_lon REAL, max_lat REAL,
  report TEXT NOT NULL
);
CREATE TABLE coverage (cid INTEGER PRIMARY KEY, dataset TEXT NOT NULL, polygon TEXT NOT NULL);
CREATE INDEX coverage_dataset ON coverage(dataset);
CREATE VIRTUAL TABLE coverage_bbox USING rtree_i32(cid, min_lon, max_lon, min_lat, max_lat);
CREATE TABLE buildings (
  bid INTEGER PRIMARY KEY,
  dataset TEXT NOT NULL,
  source_id TEXT NOT NULL,
  name TEXT,
  lod INTEGER NOT NULL,
  roof_type TEXT,
  measured_height REAL,
  min_z REAL NOT NULL,
  max_z REAL NOT NULL,
  parts TEXT NOT NULL,
  footprint BLOB NOT NULL,
  surfaces BLOB NOT NULL
);
CREATE UNIQUE INDEX buildings_dataset_id ON buildings(dataset, source_id);
CREATE VIRTUAL TABLE buildings_bbox USING rtree_i32(bid, min_lon, max_lon, min_lat, max_lat);
PRAGMA user_version = ${PREMIUM_SCHEMA_VERSION};
`;

export const INSERT_BUILDING = `INSERT INTO buildings (dataset, source_id, name, lod, roof_type, measured_height, min_z, max_z, parts, footprint, surfaces)
VALUES (@dataset, @sourceId, @name, @lod, @roofType, @measuredHeight, @minZ, @maxZ, @parts, @footprint, @surfaces)`;
export const INSERT_BUILDING_BBOX = `INSERT INTO buildings_bbox (bid, min_lon, max_lon, min_lat, max_lat) VALUES (?, ?, ?, ?, ?)`;
export const INSERT_DATASET = `INSERT INTO datasets (id, name, license, attribution, url, country, crs, format, source, imported_at,
  building_count, part_count, surface_count, skipped_count, min_lon, min_lat, max_lon, max_lat, report)
VALUES (@id, @name, @license, @attribution, @url, @country, @crs, @format, @source, @importedAt,
  @buildingCount, @partCount, @surfaceCount, @skippedCount, @minLon, @minLat, @maxLon, @maxLat, @report)`;
export const INSERT_COVERAGE = `INSERT INTO coverage (dataset, polygon) VALUES (?, ?)`;
export const INSERT_COVERAGE_BBOX = `INSERT INTO coverage_bbox (cid, min_lon, max_lon, min_lat, max_lat) VALUES (?, ?, ?, ?, ?)`;
export const DELETE_DATASET = [
  'DELETE FROM coverage_bbox WHERE cid IN (SELECT cid FROM coverage WHERE dataset = ?)',
  'DELETE FROM coverage WHERE dataset = ?',
  'DELETE FROM buildings_bbox WHERE bid IN (SELECT bid FROM buildings WHERE dataset = ?)',
  'DELETE FROM buildings WHERE dataset = ?',
  'DELETE FROM datasets WHERE id = ?',
];

/** Coverage polygons whose box meets the query box (1e-7 degrees), by dataset. */
export const QUERY_COVERAGE_BBOX = `
SELECT c.dataset, c.polygon
FROM coverage_bbox r JOIN coverage c ON c.cid = r.cid
WHERE r.min_lon <= @maxLon AND r.max_lon >= @minLon AND r.min_lat <= @maxLat AND r.max_lat >= @minLat
ORDER BY c.dataset, c.cid`;

/** Buildings whose box meets the query box (1e-7 degrees), in import order. */
export const QUERY_BUILDINGS_BBOX = `
SELECT b.bid, b.dataset, b.source_id, b.name, b.lod, b.roof_type, b.measured_height, b.min_z, b.max_z, b.parts, b.footprint, b.surfaces
FROM buildings_bbox r JOIN buildings b ON b.bid = r.bid
WHERE r.min_lon <= @maxLon AND r.max_lon >= @minLon AND r.min_lat <= @maxLat AND r.max_lat >= @minLat
ORDER BY b.bid`;

/** Each building's finished meshes (prepared-meshes.ts); added to layout 1 later, so created with IF NOT EXISTS on every write-open. */
export const CREATE_PREPARED_MESHES = `CREATE TABLE IF NOT EXISTS building_meshes (
  bid INTEGER PRIMARY KEY, anchor_lon REAL NOT NULL, anchor_lat REAL NOT NULL, mesh BLOB NOT NULL)`;
export const DELETE_PREPARED_MESHES = 'DELETE FROM building_meshes WHERE bid IN (SELECT bid FROM buildings WHERE dataset = ?)';
