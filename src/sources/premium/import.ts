/**
 * Imports one premium dataset (a city model file, or a directory of them) into the premium store,
 * as one transaction: the dataset's previous buildings are replaced only when every file has been
 * read; a broken file leaves the store as it was and the error names the file, the place in it and
 * what is wrong. Buildings without usable geometry are counted and listed in the report.
 *
 *   const report = await importPremiumDataset('var/premium.sqlite', 'data/premium/zurich.json', { id: 'zurich', country: 'CH' });
 */
import { basename } from 'node:path';
import type Database from 'better-sqlite3';
import { buildingRecord, type BuildingRecord } from './building-record.ts';
import { readCityGml } from './citygml-reader.ts';
import { readCityJson } from './cityjson-reader.ts';
import { readCityJsonSeq } from './cityjsonseq-reader.ts';
import { CoverageBuilder } from './coverage.ts';
import { CrsError, resolveSourceCrs, type SourceCrs } from './crs.ts';
import { datasetInfoSchema, type DatasetInfo } from './dataset-info.ts';
import { PremiumImportError } from './import-error.ts';
import { inputFiles, type PremiumFormat } from './input-files.ts';
import { emptyReport, noteSkip, type ImportReport } from './import-report.ts';
import type { ReaderCallbacks, SkipNote } from './source-model.ts';
import { openPremiumStore } from './store.ts';
import {
  DELETE_DATASET,
  DELETE_PREPARED_MESHES,
  INSERT_BUILDING,
  INSERT_BUILDING_BBOX,
  INSERT_COVERAGE,
  INSERT_COVERAGE_BBOX,
  INSERT_DATASET,
} from './store-schema.ts';
import { encodeFootprint, encodeSurfaces } from './surface-codec.ts';
import { prepareDatasetMeshes } from './prepared-meshes.ts';

export interface PremiumImportProgress {
  file: string;
  fileIndex: number;
  fileCount: number;
  pass: number;
  passes: number;
  bytesRead: number;
  totalBytes: number;
  buildings: number;
}

export interface PremiumImportOptions {
  onProgress?: (progress: PremiumImportProgress) => void;
}

const READERS: Record<PremiumFormat, (path: string, callbacks: ReaderCallbacks) => Promise<void>> = {
  cityjson: readCityJson,
  cityjsonseq: readCityJsonSeq,
  citygml: readCityGml,
};

class DatasetWriter {
  private readonly insertBuilding: Database.Statement;
  private readonly insertBox: Database.Statement;
  readonly coverage = new CoverageBuilder();
  readonly bbox: [number, number, number, number] = [Infinity, Infinity, -Infinity, -Infinity];

  constructor(
    private readonly db: Database.Database,
    private readonly dataset: string,
  ) {
    this.insertBuilding = db.prepare(INSERT_BUILDING);
    this.insertBox = db.prepare(INSERT_BUILDING_BBOX);
  }

  /** The coverage polygons, each as GeoJSON Polygon coordinates to 1e-7 degrees (the coverage is only good to metres). */
  writeCoverage(): void {
    const insert = this.db.prepare(INSERT_COVERAGE);
    const insertBox = this.db.prepare(INSERT_COVERAGE_BBOX);
    this.coverage.finish((polygon) => {
      const box = [Infinity, Infinity, -Infinity, -Infinity];
      const rings = polygon.map((ring) => {
        const out: number[][] = [];
        for (let i = 0; i < ring.length; i += 2) {
          const lon = Math.round(ring[i] * 1e7),
            lat = Math.round(ring[i + 1] * 1e7);
          out.push([lon / 1e7, lat / 1e7]);
          box[0] = Math.min(box[0], lon);
          box[1] = Math.min(box[1], lat);
          box[2] = Math.max(box[2], lon);
          box[3] = Math.max(box[3], lat);
        }
        out.push(out[0]);
        return out;
      });
      const { lastInsertRowid } = insert.run(this.dataset, JSON.stringify(rings));
      insertBox.run(lastInsertRowid, box[0], box[2], box[1], box[3]);
    });
  }

  write(record: BuildingRecord): void {
    const result = this.insertBuilding.run({
      dataset: this.dataset,
      sourceId: record.id,
      name: record.name,
      lod: record.lod,
      roofType: record.roofType,
      measuredHeight: record.measuredHeight,
      minZ: record.minZ,
      maxZ: record.maxZ,
      parts: JSON.stringify(record.parts),
      footprint: encodeFootprint(record.origin, record.footprint),
      surfaces: encodeSurfaces(record.origin, record.surfaces),
    });
    const b = record.bbox;
    this.insertBox.run(result.lastInsertRowid, Math.floor(b[0] * 1e7), Math.ceil(b[2] * 1e7), Math.floor(b[1] * 1e7), Math.ceil(b[3] * 1e7));
    for (let i = 0; i < 4; i++) this.bbox[i] = i < 2 ? Math.min(this.bbox[i], b[i]) : Math.max(this.bbox[i], b[i]);
    this.coverage.add(record.footprint);
  }
}

/** Imports `input` (a file or a directory) as dataset `info.id`, replacing a dataset of that id. */
export async function importPremiumDataset(
  storePath: string,
  input: string,
  infoInput: DatasetInfo,
  options: PremiumImportOptions = {},
): Promise<ImportReport> {
  const started = performance.now();
  const parsed = datasetInfoSchema.safeParse(infoInput);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`dataset ${String(infoInput.id)}: ${issue.path.join('.')}: ${issue.message}`);
  }
  const info = parsed.data;
  const files = inputFiles(input);
  const report = emptyReport(info.id);
  const db = openPremiumStore(storePath);
  try {
    const writer = new DatasetWriter(db, info.id);
    db.exec('BEGIN IMMEDIATE');
    try {
      for (const sql of [DELETE_PREPARED_MESHES, ...DELETE_DATASET]) db.prepare(sql).run(info.id);
      const crsLabels = new Set<string>(),
        formats = new Set<string>();
      for (const [fileIndex, { path, format }] of files.entries()) {
        const fileReport = await importFile(path, format, info, writer, report, (p) =>
          options.onProgress?.({ file: basename(path), fileIndex, fileCount: files.length, buildings: report.buildings, ...p }),
        );
        crsLabels.add(fileReport.crs);
        formats.add(fileReport.format);
      }
      if (report.buildings === 0) {
        throw new PremiumImportError(
          files.map((f) => basename(f.path)).join(', '),
          null,
          `no usable building (${report.skipped.count} left out, see the notes)`,
        );
      }
      const box = writer.bbox;
      writer.writeCoverage();
      const source = files.map((f) => basename(f.path)).join(', ');
      prepareDatasetMeshes(db, { id: info.id, name: info.name ?? info.id, source });
      db.prepare(INSERT_DATASET).run({
        id: info.id,
        name: info.name ?? info.id,
        license: info.license ?? null,
        attribution: info.attribution ?? null,
        url: info.url ?? null,
        country: info.country,
        crs: [...crsLabels].join(', '),
        format: [...formats].join(', '),
        source,
        importedAt: new Date().toISOString(),
        buildingCount: report.buildings,
        partCount: report.parts,
        surfaceCount: report.surfaces,
        skippedCount: report.skipped.count,
        minLon: box[0],
        minLat: box[1],
        maxLon: box[2],
        maxLat: box[3],
        report: JSON.stringify({ ...report, seconds: (performance.now() - started) / 1000 }),
      });
      db.exec('COMMIT');
    } catch (error) {
      if (db.inTransaction) db.exec('ROLLBACK');
      throw error;
    } finally {
      writer.coverage.close();
    }
  } finally {
    db.close();
  }
  report.seconds = (performance.now() - started) / 1000;
  report.peakRssBytes = process.resourceUsage().maxRSS * 1024;
  return report;
}

async function importFile(
  path: string,
  format: PremiumFormat,
  info: DatasetInfo,
  writer: DatasetWriter,
  report: ImportReport,
  onProgress: (p: { pass: number; passes: number; bytesRead: number; totalBytes: number }) => void,
): Promise<{ crs: string; format: string }> {
  const file = basename(path);
  let crs: SourceCrs | null = null,
    formatName: string = format;
  const fileReport = { file, format: formatName, crs: '', buildings: 0, skipped: 0 };
  report.files.push(fileReport);
  const skip = (note: SkipNote) => {
    fileReport.skipped++;
    noteSkip(report.skipped, { file, ...note });
  };
  await READERS[format](path, {
    header(header) {
      formatName = fileReport.format = header.format;
      try {
        crs = resolveSourceCrs(header.crs, info.crs ?? null, info.axisOrder ?? null);
      } catch (error) {
        if (!(error instanceof CrsError)) throw error;
        throw new PremiumImportError(file, null, `${error.message}; set it with --crs EPSG:<code> (or "crs" in CITY_PREMIUM_SOURCES)`);
      }
      fileReport.crs = crs.label;
    },
    item(item) {
      if (item.kind === 'skip') return skip(item.note);
      if (item.kind === 'note') return noteSkip(report.notes, { file, ...item.note });
      const building = item.building;
      let record: BuildingRecord | null;
      try {
        record = buildingRecord(building, crs!);
      } catch (error) {
        throw new PremiumImportError(file, `building "${building.id}"`, error instanceof Error ? error.message : String(error));
      }
      if (!record) return skip({ id: building.id, reason: 'no usable geometry: no surface with an area seen from above' });
      try {
        writer.write(record);
      } catch (error) {
        if (error instanceof Error && /UNIQUE constraint/.test(error.message)) {
          throw new PremiumImportError(file, `building "${building.id}"`, `a building with this id is already in dataset ${info.id}`);
        }
        throw error;
      }
      fileReport.buildings++;
      report.buildings++;
      report.parts += record.parts.length;
      report.surfaces += record.surfaces.length;
      report.byLod[`lod${record.lod}`]++;
    },
    ignored(type) {
      report.ignoredTypes[type] = (report.ignoredTypes[type] ?? 0) + 1;
    },
    progress: onProgress,
  });
  return { crs: fileReport.crs, format: formatName };
}
