/**
 * Imports the larger 2016 extract of Monaco and the towns around it (~70 km²). Reference values
 * from osmium-tool 1.15: `osmium fileinfo -e` and `osmium export -f geojsonseq -u type_id`.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importOsm, type ImportStats } from '../../../../src/sources/osm/import.ts';
import { OsmStore } from '../../../../src/sources/osm/store.ts';
import { OSM_LAYERS } from '../../../../src/sources/osm/layers.ts';
import type { OsmFeature } from '../../../../src/osm-model/feature.ts';

const dir = mkdtempSync(join(tmpdir(), 'osm-region-test-'));
const dbPath = join(dir, 'osm.sqlite');
let stats: ImportStats;
let all: OsmFeature[];

before(async () => {
  stats = await importOsm('data/monaco/monaco-region-2016.osm.pbf', dbPath);
  // Speed target ≤ 30 s on a 2-core box; printed, not asserted.
  console.log(
    `monaco-region-2016.osm.pbf imported in ${stats.seconds.toFixed(2)} s, peak RSS ${(stats.peakRssBytes / 1048576).toFixed(0)} MB, ${stats.features} features`,
  );
  const store = OsmStore.open(dbPath);
  all = store.query({ minLon: -180, minLat: -90, maxLon: 180, maxLat: 90 }, OSM_LAYERS);
  store.close();
});

after(() => rmSync(dir, { recursive: true, force: true }));

test('region: entity counts and multipolygons match osmium', () => {
  assert.deepEqual([stats.nodes, stats.ways, stats.relations], [180118, 27377, 212]);
  // osmium builds 27 relation areas: 12 type=multipolygon + 15 type=boundary (boundaries are not imported as areas).
  assert.equal(all.filter((f) => f.id.startsWith('relation/')).length, 12);
  // One multipolygon does not close in this extract; osmium cannot build it either.
  assert.equal(stats.skipped.unassembledRelations, 1);
});

test('region: buildings and trees', () => {
  const buildingAreas = all.filter((f) => f.layer === 'building' && f.kind === 'area');
  assert.equal(buildingAreas.filter((f) => f.id.startsWith('relation/')).length, 3);
  // osmium: 23324 building areas from ways; it also rejects ways 62656969 and 62664330 as invalid
  // (self-intersecting) polygons, which the store keeps (geometry builders clean rings anyway).
  const fromWays = new Set(buildingAreas.filter((f) => f.id.startsWith('way/')).map((f) => f.id));
  assert.equal(fromWays.size, 23324 + 2);
  assert.ok(fromWays.has('way/62656969') && fromWays.has('way/62664330'));
  // data/README.md and osmium: 212 trees.
  assert.equal(all.filter((f) => f.kind === 'point' && f.tags.natural === 'tree').length, 212);
});
