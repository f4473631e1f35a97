/**
 * Broken and incomplete files: the import fails with the file, the place and what is wrong, and the
 * store is exactly what it was (one transaction); buildings without geometry are reported, not lost.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { importPremiumDataset } from '../../../../src/sources/premium/import.ts';
import { PremiumImportError } from '../../../../src/sources/premium/import-error.ts';
import { boxSurfaces, CITYGML2_CLOSE, CITYGML2_OPEN, gmlSolidBuilding } from '../../../support/generators/premium-files.ts';

const ZURICH = 'data/premium/zurich_subset_lod2.json';
const BERLIN = 'data/premium/berlin_open_data_sample_data.citygml';
const dir = mkdtempSync(join(tmpdir(), 'premium-broken-'));
const store = join(dir, 'premium.sqlite');
after(() => rmSync(dir, { recursive: true, force: true }));

/** Everything the store holds, as comparable text. */
function snapshot(): string {
  const db = new Database(store, { readonly: true });
  try {
    const tables = ['datasets', 'buildings', 'buildings_bbox', 'coverage', 'coverage_bbox'];
    return JSON.stringify(tables.map((t) => db.prepare(`SELECT * FROM ${t} ORDER BY 1`).all()));
  } finally {
    db.close();
  }
}

function write(name: string, text: string | Buffer): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

before(async () => {
  await importPremiumDataset(store, ZURICH, { id: 'zurich', country: 'CH' });
  await importPremiumDataset(store, BERLIN, { id: 'berlin', country: 'DE-BE' });
});

/** Imports `path` as dataset `id` and expects a PremiumImportError matching `message`, with the store unchanged. */
async function assertFailsCleanly(path: string, id: string, message: RegExp, info: { crs?: string } = {}): Promise<PremiumImportError> {
  const before = snapshot();
  let caught: unknown;
  await importPremiumDataset(store, path, { id, country: 'CH', ...info }).catch((e: unknown) => {
    caught = e;
  });
  assert.ok(caught instanceof PremiumImportError, `expected an import error, got ${String(caught)}`);
  assert.match(caught.message, message);
  assert.equal(snapshot(), before, 'the store is untouched');
  return caught;
}

test('truncated CityGML: the line where the XML breaks off, nothing replaced', async () => {
  const text = readFileSync(BERLIN, 'utf8');
  const path = write('berlin-cut.citygml', text.slice(0, Math.floor(text.length / 2)));
  const error = await assertFailsCleanly(path, 'berlin', /^berlin-cut\.citygml \(line \d+, column \d+\): malformed XML/);
  assert.ok(Number(/line (\d+)/.exec(error.message)![1]) > 1000, error.message);
});

test('truncated CityJSON and CityJSONSeq: named file, line, and the dataset left as it was', async () => {
  const text = readFileSync(ZURICH, 'utf8');
  await assertFailsCleanly(
    write('zurich-cut.json', text.slice(0, text.length - 200)),
    'zurich',
    /^zurich-cut\.json \(pass 1, line \d+\): .*(truncated|expected)/,
  );
  const header = JSON.stringify({ type: 'CityJSON', version: '2.0', metadata: { referenceSystem: 'EPSG:2056' }, CityObjects: {}, vertices: [] });
  const feature = JSON.stringify({ type: 'CityJSONFeature', id: 'a', CityObjects: { a: { type: 'Building' } }, vertices: [] });
  const seq = [header, feature, feature.slice(0, 30)].join('\n');
  await assertFailsCleanly(write('cut.city.jsonl', seq), 'new-dataset', /^cut\.city\.jsonl \(line 3\): malformed JSON/);
});

test('missing and unknown CRS: the error names the file and the --crs option; with --crs the same file imports', async () => {
  const gml = [CITYGML2_OPEN, gmlSolidBuilding('b1', boxSurfaces(2600000, 1200000, 5, 5, 400, 5)), CITYGML2_CLOSE].join('\n');
  const missing = write('no-crs.gml', gml);
  await assertFailsCleanly(missing, 'no-crs', /^no-crs\.gml: the file names no CRS; set it with --crs EPSG:<code>/);
  const unknown = write(
    'odd-crs.gml',
    gml.replace('<core:cityObjectMember>', '<gml:boundedBy><gml:Envelope srsName="EPSG:999999"/></gml:boundedBy><core:cityObjectMember>'),
  );
  await assertFailsCleanly(unknown, 'odd-crs', /^odd-crs\.gml: unknown CRS "EPSG:999999".*--crs/);
  const json = write('no-crs.json', JSON.stringify({ type: 'CityJSON', version: '1.1', CityObjects: {}, vertices: [] }));
  await assertFailsCleanly(json, 'no-crs', /^no-crs\.json: the file names no CRS; set it with --crs/);
  const report = await importPremiumDataset(store, missing, { id: 'no-crs', country: 'CH', crs: 'EPSG:2056' });
  assert.equal(report.buildings, 1);
});

test('buildings without geometry are counted with their reason; a file with none usable is an error', async () => {
  const empty = '<core:cityObjectMember><bldg:Building gml:id="ghost"><gml:name>nothing here</gml:name></bldg:Building></core:cityObjectMember>';
  const srs = '<gml:boundedBy><gml:Envelope srsName="EPSG:2056"/></gml:boundedBy>';
  const good = gmlSolidBuilding('real', boxSurfaces(2600000, 1200000, 5, 5, 400, 5));
  const report = await importPremiumDataset(store, write('ghost.gml', [CITYGML2_OPEN, srs, good, empty, CITYGML2_CLOSE].join('\n')), {
    id: 'ghost',
    country: 'CH',
  });
  assert.equal(report.buildings, 1);
  assert.equal(report.skipped.count, 1);
  assert.deepEqual(
    report.skipped.examples.map((n) => [n.file, n.id]),
    [['ghost.gml', 'ghost']],
  );
  assert.match(report.skipped.examples[0].reason, /no usable geometry/);
  await assertFailsCleanly(write('only-ghosts.gml', [CITYGML2_OPEN, srs, empty, CITYGML2_CLOSE].join('\n')), 'ghosts', /no usable building \(1 left out/);
});

test('a directory whose files repeat a building id fails on the repeat, naming file and building', async () => {
  const sub = join(dir, 'tiles');
  mkdirSync(sub);
  const srs = '<gml:boundedBy><gml:Envelope srsName="EPSG:2056"/></gml:boundedBy>';
  const building = gmlSolidBuilding('same', boxSurfaces(2600000, 1200000, 5, 5, 400, 5));
  for (const name of ['a.gml', 'b.gml']) writeFileSync(join(sub, name), [CITYGML2_OPEN, srs, building, CITYGML2_CLOSE].join('\n'));
  await assertFailsCleanly(sub, 'tiles', /^b\.gml \(building "same"\): a building with this id is already in dataset tiles/);
});

test('a bad vertex index names the CityObject', async () => {
  const text = JSON.stringify({
    type: 'CityJSON',
    version: '1.1',
    metadata: { referenceSystem: 'EPSG:2056' },
    CityObjects: { bad: { type: 'Building', geometry: [{ type: 'MultiSurface', lod: '2', boundaries: [[[0, 1, 7]]] }] } },
    vertices: [
      [2600000, 1200000, 400],
      [2600010, 1200000, 400],
    ],
  });
  await assertFailsCleanly(write('bad-index.json', text), 'bad', /^bad-index\.json \(CityObject "bad"\): vertex index 7 out of range/);
});
