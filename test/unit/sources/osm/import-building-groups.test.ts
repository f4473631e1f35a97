/**
 * type=building relations (Simple 3D Buildings) in the OSM store: recorded at import with the
 * extent of their members, returned on the member features by OsmStore.query, and absent (not an
 * error) in a store built before they were recorded.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { importOsm, type ImportStats } from '../../../../src/sources/osm/import.ts';
import { OsmStore, storeInfo, storeIsCurrent } from '../../../../src/sources/osm/store.ts';
import { OSM_LAYERS } from '../../../../src/sources/osm/layers.ts';
import type { OsmFeature } from '../../../../src/osm-model/feature.ts';
import { buildingRelationsPbf, cornersLonLat } from '../../../support/generators/building-relations.ts';

const WORLD = { minLon: -180, minLat: -90, maxLon: 180, maxLat: 90 };
const dir = mkdtempSync(join(tmpdir(), 'osm-building-relations-'));
const dbPath = join(dir, 'osm.sqlite');
let stats: ImportStats;

before(async () => {
  writeFileSync(join(dir, 'fixture.osm.pbf'), buildingRelationsPbf());
  stats = await importOsm(join(dir, 'fixture.osm.pbf'), dbPath);
});
after(() => rmSync(dir, { recursive: true, force: true }));

/** [minLon, maxLon, minLat, maxLat] in 1e-7 degrees over the corners of the given rectangle ways. */
function extent7(...wayIds: number[]): [number, number, number, number] {
  const pts = wayIds.flatMap(cornersLonLat).map(([lon, lat]) => [Math.round(lon * 1e7), Math.round(lat * 1e7)]);
  return [Math.min(...pts.map((p) => p[0])), Math.max(...pts.map((p) => p[0])), Math.min(...pts.map((p) => p[1])), Math.max(...pts.map((p) => p[1]))];
}

function bboxOf(...wayIds: number[]) {
  const [minLon, maxLon, minLat, maxLat] = extent7(...wayIds).map((v) => v / 1e7);
  return { minLon, minLat, maxLon, maxLat };
}

test('import records every way/relation member of each type=building relation, with the extent of those in the store', () => {
  assert.equal(stats.buildingRelations, 4);
  const db = new Database(dbPath, { readonly: true });
  const rows = db.prepare('SELECT relation_id, member_id, role, min_lon, max_lon, min_lat, max_lat FROM building_relations ORDER BY rowid').raw(true).all();
  db.close();
  const a = extent7(100, 101),
    c = extent7(120, 121, 141),
    d = extent7(131, 132);
  assert.deepEqual(rows, [
    ['relation/300', 'way/100', 'outline', ...a],
    ['relation/300', 'way/101', 'part', ...a],
    ['relation/300', 'relation/999', 'part', ...a], // missing from the file: listed, adds nothing to the extent
    ['relation/301', 'way/120', 'outline', ...c],
    ['relation/301', 'way/121', 'part', ...c],
    ['relation/301', 'relation/400', 'part', ...c], // the multipolygon part counts with its assembled area
    ['relation/302', 'way/132', 'outline', ...d],
    ['relation/302', 'way/131', 'part', ...d],
    ['relation/303', 'way/998', 'outline', null, null, null, null],
  ]);
  assert.equal(storeInfo(dbPath).buildingRelations, 4);
});

test('query returns the membership on member features only, whatever the query box', () => {
  const store = OsmStore.open(dbPath);
  try {
    const all = new Map(store.query(WORLD, OSM_LAYERS).map((f) => [f.id, f]));
    const a = bboxOf(100, 101),
      c = bboxOf(120, 121, 141),
      d = bboxOf(131, 132);
    const expected: Record<string, OsmFeature['buildingRelation']> = {
      'way/100': [{ id: 'relation/300', role: 'outline', bbox: a }],
      'way/101': [{ id: 'relation/300', role: 'part', bbox: a }],
      'way/120': [{ id: 'relation/301', role: 'outline', bbox: c }],
      'way/121': [{ id: 'relation/301', role: 'part', bbox: c }],
      'relation/400': [{ id: 'relation/301', role: 'part', bbox: c }],
      'way/132': [{ id: 'relation/302', role: 'outline', bbox: d }],
      'way/131': [{ id: 'relation/302', role: 'part', bbox: d }],
    };
    assert.deepEqual([...all.keys()].filter((id) => all.get(id)!.buildingRelation).sort(), Object.keys(expected).sort());
    for (const [id, membership] of Object.entries(expected)) assert.deepEqual(all.get(id)!.buildingRelation, membership, id);
    assert.ok(!('buildingRelation' in all.get('way/102')!), 'a building outside every relation has no field');
    assert.ok(!('buildingRelation' in all.get('node/1')!), 'node members are not recorded');
    // a box around the far part alone still tells where its relation's outline is
    const part = store.query(bboxOf(121), ['building_part']).find((f) => f.id === 'way/121');
    assert.deepEqual(part?.buildingRelation, expected['way/121']);
  } finally {
    store.close();
  }
});

test('stores of an older schema (no building groups) are refused, so the service imports them again; unknown versions too', () => {
  assert.equal(storeIsCurrent(dbPath), true);
  for (const version of [1, 2]) {
    const old = join(dir, `old-${version}.sqlite`);
    copyFileSync(dbPath, old);
    const db = new Database(old);
    db.pragma(`user_version = ${version}`);
    db.close();
    assert.throws(() => OsmStore.open(old), new RegExp(`schema version ${version}, expected 3`));
    assert.equal(storeIsCurrent(old), false);
  }
  assert.equal(storeIsCurrent(join(dir, 'missing.sqlite')), false);

  const future = join(dir, 'future.sqlite');
  copyFileSync(dbPath, future);
  const fdb = new Database(future);
  fdb.pragma('user_version = 99');
  fdb.close();
  assert.throws(() => OsmStore.open(future), /schema version 99/);
});
