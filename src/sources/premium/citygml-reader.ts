/**
 * CityGML files through saxes, a streaming XML parser that checks well-formedness: a truncated or
 * broken file fails with its line and column, and nothing but the current building is held.
 *
 * xlink:href references are resolved within their building when it closes. A building that
 * refers to geometry outside itself is staged in a temporary on-disk SQLite database, and a second
 * pass collects just the polygons and surface groups it needs from anywhere in the file; that pass
 * runs only when some building needs it, and memory holds only what was asked for.
 */
import { createReadStream, statSync } from 'node:fs';
import { basename } from 'node:path';
import Database from 'better-sqlite3';
import { SaxesParser } from 'saxes';
import { buildingItems, CityGmlHandler, type DeferredBuilding } from './citygml-handler.ts';
import { GmlBuildingGeometry, type GmlObject } from './citygml-polygons.ts';
import { PremiumImportError } from './import-error.ts';
import type { ReaderCallbacks } from './source-model.ts';

async function parseFile(path: string, handler: CityGmlHandler, onProgress: (bytesRead: number, totalBytes: number) => void): Promise<void> {
  const file = basename(path);
  const totalBytes = statSync(path).size;
  const parser = new SaxesParser({ position: true });
  let error: unknown = null;
  const where = () => `line ${parser.line}, column ${parser.column}`;
  const guard =
    <A extends unknown[]>(fn: (...args: A) => void) =>
    (...args: A): void => {
      if (error) return;
      try {
        fn(...args);
      } catch (e) {
        error = e instanceof PremiumImportError ? e : new PremiumImportError(file, where(), e instanceof Error ? e.message : String(e));
      }
    };
  parser.on(
    'opentag',
    guard((tag) => handler.openTag(tag.name, tag.attributes as Record<string, string>)),
  );
  parser.on(
    'text',
    guard((text: string) => handler.onText(text)),
  );
  parser.on(
    'closetag',
    guard(() => handler.closeTag()),
  );
  parser.on('error', (e: Error) => {
    // saxes prefixes its messages with the position; keep only what is wrong
    error ??= new PremiumImportError(file, where(), `malformed XML: ${e.message.replace(/^\d+:\d+: /, '')}`);
  });
  let bytesRead = 0;
  const stream = createReadStream(path, { encoding: 'utf8', highWaterMark: 1 << 16 });
  try {
    for await (const chunk of stream as AsyncIterable<string>) {
      bytesRead += Buffer.byteLength(chunk);
      parser.write(chunk);
      if (error) throw error;
      onProgress(bytesRead, totalBytes);
    }
    parser.close();
    if (error) throw error;
    handler.end();
  } finally {
    stream.destroy();
  }
}

/** Buildings waiting for geometry defined elsewhere in the file, on disk. */
class DeferredStaging {
  private readonly db = new Database('');
  private readonly insert: Database.Statement;
  readonly wanted = new Set<string>();
  count = 0;

  constructor() {
    this.db.pragma('journal_mode = OFF');
    this.db.exec('CREATE TABLE deferred (seq INTEGER PRIMARY KEY, building TEXT NOT NULL)');
    this.insert = this.db.prepare('INSERT INTO deferred (seq, building) VALUES (?, ?)');
  }

  add(building: DeferredBuilding): void {
    this.insert.run(++this.count, JSON.stringify(building));
    for (const id of building.unresolved) this.wanted.add(id);
  }

  *all(): Generator<{ objects: GmlObject[]; geometry: GmlBuildingGeometry; unresolved: string[] }> {
    const page = this.db.prepare('SELECT seq, building FROM deferred WHERE seq > ? ORDER BY seq LIMIT 64');
    for (let after = 0; ; ) {
      const rows = page.all(after) as { seq: number; building: string }[];
      if (rows.length === 0) return;
      for (const row of rows) {
        const data = JSON.parse(row.building) as { objects: GmlObject[]; geometry: Parameters<typeof GmlBuildingGeometry.fromJSON>[0]; unresolved: string[] };
        yield { objects: data.objects, geometry: GmlBuildingGeometry.fromJSON(data.geometry), unresolved: data.unresolved };
      }
      after = rows[rows.length - 1].seq;
    }
  }

  close(): void {
    this.db.close();
  }
}

export async function readCityGml(path: string, callbacks: ReaderCallbacks): Promise<void> {
  const staging = new DeferredStaging();
  try {
    const first = new CityGmlHandler(callbacks, { defer: (b) => staging.add(b) });
    await parseFile(path, first, (bytesRead, totalBytes) => callbacks.progress?.({ pass: 1, passes: 1, bytesRead, totalBytes }));
    if (staging.count === 0) return;
    const noCallbacks: ReaderCallbacks = { header() {}, item() {}, ignored() {} };
    const second = new CityGmlHandler(noCallbacks, { collect: staging.wanted });
    await parseFile(path, second, (bytesRead, totalBytes) => callbacks.progress?.({ pass: 2, passes: 2, bytesRead, totalBytes }));
    for (const { objects, geometry, unresolved } of staging.all()) {
      geometry.adopt(second.collected, unresolved);
      buildingItems(objects, geometry, callbacks);
    }
  } finally {
    staging.close();
  }
}
