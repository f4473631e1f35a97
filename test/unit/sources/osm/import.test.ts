/**
 * Imports the real Monaco extract once and checks the store against reference values that were
 * computed independently with osmium-tool 1.15 (Debian bookworm):
 *   - entity counts:   `osmium fileinfo -e data/monaco/monaco.osm.pbf`
 *   - features:        `osmium export -f geojsonseq -u type_id data/monaco/monaco.osm.pbf`, counted by tag
 *                      (areas from ways have even ids, from relations odd ids)
 *   - tag-only checks: `osmium cat -f opl`, grepped
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { importOsm, type ImportProgress, type ImportStats } from '../../../../src/sources/osm/import.ts';
import { OsmStore, storeInfo } from '../../../../src/sources/osm/store.ts';
import { OSM_LAYERS } from '../../../../src/sources/osm/layers.ts';
import { decodeGeometry } from '../../../../src/sources/osm/geometry-codec.ts';
import { signedArea2 } from '../../../../src/geometry/ring.ts';
import type { LonLatBBox, OsmFeature, OsmLayer } from '../../../../src/osm-model/feature.ts';

const MONACO = 'data/monaco/monaco.osm.pbf';
const dir = mkdtempSync(join(tmpdir(), 'osm-import-test-'));
const dbPath = join(dir, 'osm.sqlite');
let stats: ImportStats;
const progress: ImportProgress[] = [];
let store: OsmStore;
let all: OsmFeature[];

/** Every row decoded straight from the table: the brute-force reference for bbox queries. */
let rows: { id: string; layer: OsmLayer; bbox: [number, number, number, number] }[];

const WORLD: LonLatBBox = { minLon: -180, minLat: -90, maxLon: 180, maxLat: 90 };

function coordsOf(f: { kind: string; point?: number[]; line?: number[]; polygons?: number[][][] }): number[] {
  return f.kind === 'point' ? f.point! : f.kind === 'line' ? f.line! : f.polygons!.flat(2);
}

function bboxOf(coords: number[]): [number, number, number, number] {
  const b: [number, number, number, number] = [Infinity, Infinity, -Infinity, -Infinity];
  for (let i = 0; i < coords.length; i += 2) {
    b[0] = Math.min(b[0], coords[i]);
    b[1] = Math.min(b[1], coords[i + 1]);
    b[2] = Math.max(b[2], coords[i]);
    b[3] = Math.max(b[3], coords[i + 1]);
  }
  return b;
}

before(async () => {
  stats = await importOsm(MONACO, dbPath, { onProgress: (p) => progress.push(p) });
  console.log(`monaco.osm.pbf imported in ${stats.seconds.toFixed(2)} s, peak RSS ${(stats.peakRssBytes / 1048576).toFixed(0)} MB`);
  store = OsmStore.open(dbPath);
  all = store.query(WORLD, OSM_LAYERS);
  const db = new Database(dbPath, { readonly: true });
  rows = (db.prepare('SELECT osm_id, layer, geom FROM features').raw(true).all() as [string, OsmLayer, Buffer][]).map(([id, layer, geom]) => {
    const g = decodeGeometry(geom);
    return { id, layer, bbox: bboxOf(g.kind === 'point' ? g.point : g.kind === 'line' ? g.line : g.polygons.flat(2)) };
  });
  db.close();
});

after(() => {
  store?.close();
  rmSync(dir, { recursive: true, force: true });
});

const count = (pred: (f: OsmFeature) => boolean) => all.filter(pred).length;

test('monaco: entity counts, nothing skipped, progress for both passes, no temp file left', () => {
  assert.deepEqual([stats.nodes, stats.ways, stats.relations], [27135, 4295, 255]);
  assert.deepEqual(stats.skipped, { unresolvedWays: 0, degenerateGeometry: 0, incompleteRelations: 0, unassembledRelations: 0 });
  assert.equal(all.length, stats.features);
  for (const pass of [1, 2]) {
    const last = progress.filter((p) => p.pass === pass).at(-1)!;
    assert.equal(last.bytesRead, last.totalBytes);
    assert.equal(last.blobs, 7); // 1 OSMHeader + 6 OSMData blobs in this file
  }
  assert.deepEqual(
    readdirSync(dir).filter((f) => f.includes('importing')),
    [],
  );
});

test('monaco: buildings and building parts', () => {
  // osmium export: 1191 building ways + 23 building multipolygons = 1214 areas. (data/README's 1,215
  // counts objects with a building tag; the extra one is the type=site relation 13453960, not a geometry.)
  const buildings = all.filter((f) => f.layer === 'building');
  assert.equal(buildings.length, 1214);
  assert.ok(buildings.every((f) => f.kind === 'area'));
  assert.equal(buildings.filter((f) => f.id.startsWith('way/')).length, 1191);
  assert.equal(buildings.filter((f) => f.id.startsWith('relation/')).length, 23);
  // osmium export, buildings with the tag: building:levels 438 ways + 10 relations, height 38 + 1.
  // (README's 456 / 44 count every object with the tag, including building:part and non-building ones.)
  assert.equal(buildings.filter((f) => f.tags['building:levels'] !== undefined).length, 448);
  assert.equal(buildings.filter((f) => f.tags.height !== undefined).length, 39);
  // 15 ways with building:part; 2 of them also carry building=* and are filed as buildings.
  assert.equal(
    count((f) => f.layer === 'building_part'),
    13,
  );
  assert.equal(
    count((f) => f.tags['building:part'] !== undefined),
    15,
  );
  // The Prince's Palace multipolygon (relation 393226) has an inner courtyard.
  const palace = all.find((f) => f.id === 'relation/393226')!;
  assert.equal(palace.layer, 'building');
  assert.deepEqual(
    palace.polygons!.map((p) => p.length),
    [2],
  );
});

test('monaco: points, trees, benches and multipolygons', () => {
  // 2676 tagged nodes (osmium export), of which 50 carry only source/created_by/note/fixme.
  assert.equal(
    count((f) => f.kind === 'point'),
    2626,
  );
  assert.equal(
    count((f) => f.kind === 'point' && f.tags.natural === 'tree' && f.layer === 'poi'),
    524,
  );
  assert.equal(
    count((f) => f.kind === 'point' && f.tags.amenity === 'bench'),
    121,
  );
  assert.equal(
    count((f) => f.tags.amenity === 'bench'),
    122,
  ); // + one bench mapped as a way
  // All 32 type=multipolygon relations are tagged and assemble (osmium export builds all 32).
  assert.equal(
    count((f) => f.id.startsWith('relation/')),
    32,
  );
});

test('monaco: every geometry is well-formed and inside the extract', () => {
  const [minLon, minLat, maxLon, maxLat] = [7.4016756, 43.5165358, 7.5002447, 43.7543379]; // osmium fileinfo data bbox
  for (const f of all) {
    const c = coordsOf(f);
    for (let i = 0; i < c.length; i += 2) {
      assert.ok(c[i] >= minLon && c[i] <= maxLon && c[i + 1] >= minLat && c[i + 1] <= maxLat, `${f.id} outside the extract`);
    }
    if (f.kind === 'line') assert.ok(f.line!.length >= 4, f.id);
    if (f.kind === 'area') {
      for (const [outer, ...holes] of f.polygons!) {
        for (const ring of [outer, ...holes]) {
          assert.ok(ring.length >= 6, `${f.id}: ring with fewer than 3 points`);
          assert.ok(ring[0] !== ring.at(-2) || ring[1] !== ring.at(-1), `${f.id}: closing duplicate`);
        }
        assert.ok(signedArea2(outer) > 0, `${f.id}: outer ring not counter-clockwise`);
        for (const hole of holes) assert.ok(signedArea2(hole) < 0, `${f.id}: hole not clockwise`);
      }
    }
  }
});

test('monaco: bbox queries return exactly the features whose bbox intersects (brute force over all rows)', () => {
  const bboxArb = fc
    .record({
      lon: fc.double({ min: 7.4, max: 7.46, noNaN: true }),
      lat: fc.double({ min: 43.72, max: 43.76, noNaN: true }),
      w: fc.double({ min: 0, max: 0.02, noNaN: true }),
      h: fc.double({ min: 0, max: 0.02, noNaN: true }),
    })
    .map(({ lon, lat, w, h }): LonLatBBox => ({ minLon: lon, minLat: lat, maxLon: lon + w, maxLat: lat + h }));
  const layersArb = fc.subarray([...OSM_LAYERS], { minLength: 1 });
  fc.assert(
    fc.property(bboxArb, layersArb, (bbox, layers) => {
      const got = store
        .query(bbox, layers)
        .map((f) => f.id)
        .sort();
      const expected = rows
        .filter((r) => layers.includes(r.layer) && r.bbox[0] <= bbox.maxLon && r.bbox[2] >= bbox.minLon && r.bbox[1] <= bbox.maxLat && r.bbox[3] >= bbox.minLat)
        .map((r) => r.id)
        .sort();
      assert.deepEqual(got, expected);
    }),
    { numRuns: 150 },
  );
  assert.deepEqual(store.query({ minLon: 7.42, minLat: 43.73, maxLon: 7.43, maxLat: 43.74 }, []), []);
  assert.ok(store.query({ minLon: 7.42, minLat: 43.73, maxLon: 7.43, maxLat: 43.74 }, ['building']).length > 50);
});

test('monaco: a 500 m tile over central Monaco (timing printed, not asserted)', (t) => {
  const lat = 43.735,
    lon = 7.419;
  const dLat = 250 / 111_320,
    dLon = 250 / (111_320 * Math.cos((lat * Math.PI) / 180));
  const tile = { minLon: lon - dLon, minLat: lat - dLat, maxLon: lon + dLon, maxLat: lat + dLat };
  const times: number[] = [];
  let features: OsmFeature[] = [];
  for (let i = 0; i < 7; i++) {
    const start = performance.now();
    features = store.query(tile, OSM_LAYERS);
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  const message = `500 m tile, all layers: ${features.length} features, median ${times[3].toFixed(1)} ms (min ${times[0].toFixed(1)}, max ${times[6].toFixed(1)})`;
  console.log(message);
  t.diagnostic(message);
  assert.ok(features.some((f) => f.layer === 'building') && features.some((f) => f.layer === 'highway'));
});

test('monaco: storeInfo reports the counts, the source file and the data timestamp', () => {
  const info = storeInfo(dbPath);
  assert.deepEqual(info.counts, stats.byLayer);
  assert.equal(info.total, stats.features);
  assert.equal(info.sourceFile, 'monaco.osm.pbf');
  assert.equal(info.dataTimestamp, '2022-07-19T20:21:59.000Z'); // osmium fileinfo: osmosis_replication_timestamp
  assert.ok(!Number.isNaN(Date.parse(info.importedAt)));
});

test('monaco: stores opened in two worker threads answer the same query at the same time', async () => {
  const code = `
    const { parentPort, workerData } = require('node:worker_threads');
    (async () => {
      (await import(workerData.tsx)).register();
      const { OsmStore } = await import(workerData.module);
      const store = OsmStore.open(workerData.db);
      const ids = store.query(workerData.bbox, ['building', 'highway']).map((f) => f.id);
      store.close();
      parentPort.postMessage(ids);
    })().catch((e) => { throw e; });`;
  const bbox = { minLon: 7.41, minLat: 43.73, maxLon: 7.43, maxLat: 43.74 };
  const workerData = {
    tsx: import.meta.resolve('tsx/esm/api'),
    module: new URL('../../../../src/sources/osm/store.ts', import.meta.url).href,
    db: dbPath,
    bbox,
  };
  const run = () =>
    new Promise<string[]>((resolve, reject) => {
      const worker = new Worker(code, { eval: true, workerData });
      worker.once('message', (ids: string[]) => {
        resolve(ids);
        void worker.terminate();
      });
      worker.once('error', reject);
    });
  const [a, b] = await Promise.all([run(), run()]);
  const expected = store.query(bbox, ['building', 'highway']).map((f) => f.id);
  assert.ok(expected.length > 100);
  assert.deepEqual(a, expected);
  assert.deepEqual(b, expected);
});
