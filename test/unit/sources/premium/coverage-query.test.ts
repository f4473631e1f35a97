/** Which bundled sample covers a request polygon: inside, half over the edge, far from it, in a gap between scattered buildings. */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { datasetsCovering } from '../../../../src/sources/premium/coverage-query.ts';
import { buildingsInBox, openPremiumStore } from '../../../../src/sources/premium/store.ts';
import { square, MONACO_CENTRE } from '../../../support/polygons.ts';
import { BERLIN_SAMPLE_EAST_EDGE, ZURICH_SAMPLE_BUILDING, importBundledSamples } from '../../../support/premium-areas.ts';

const dir = mkdtempSync(join(tmpdir(), 'premium-coverage-'));
let db: Database.Database;
before(async () => {
  db = openPremiumStore(await importBundledSamples(dir), { readonly: true });
});
after(() => {
  db?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A [lat, lon] polygon as flat lon, lat. */
const lonLat = (polygon: readonly (readonly [number, number])[]) => polygon.flatMap(([lat, lon]) => [lon, lat]);
const covering = (lat: number, lon: number, side: number) => datasetsCovering(db, lonLat(square(lat, lon, side)));

test('a square on a Zürich building, half over the Berlin block, around Monaco', () => {
  assert.deepEqual(covering(...ZURICH_SAMPLE_BUILDING, 100), [{ id: 'zurich-sample', country: 'CH' }]);
  assert.deepEqual(covering(...BERLIN_SAMPLE_EAST_EDGE, 400), [{ id: 'berlin-sample', country: 'DE-BE' }]);
  assert.deepEqual(covering(...MONACO_CENTRE, 2000), []);
  // east of the Berlin block by more than its 30 m margin, and a square around all of it
  assert.deepEqual(covering(BERLIN_SAMPLE_EAST_EDGE[0], BERLIN_SAMPLE_EAST_EDGE[1] + 0.002, 100), []);
  assert.deepEqual(covering(BERLIN_SAMPLE_EAST_EDGE[0], BERLIN_SAMPLE_EAST_EDGE[1], 5000), [{ id: 'berlin-sample', country: 'DE-BE' }]);
  // both datasets at once: a degenerate-free polygon spanning Berlin to Zürich
  const both = datasetsCovering(db, [8.4, 47.3, 13.5, 47.3, 13.5, 52.6, 8.4, 52.6, 8.4, 47.3]);
  assert.deepEqual(
    both.map((d) => d.id),
    ['berlin-sample', 'zurich-sample'],
  );
});

test('every Zürich building is covered where it stands; a 50 m square in the middle of the scattered sample is not', () => {
  const buildings = buildingsInBox(db, [8.4, 47.3, 8.7, 47.5]);
  assert.equal(buildings.length, 49);
  for (const b of buildings) {
    const [lon, lat] = b.footprint[0][0];
    assert.deepEqual(covering(lat, lon, 10), [{ id: 'zurich-sample', country: 'CH' }], b.id);
  }
  // the sample's box centre lies far from its buildings: inside the box, outside the coverage
  const nearest = Math.min(...buildings.map((b) => Math.hypot((b.footprint[0][0][0] - 8.53537) * 75_000, (b.footprint[0][0][1] - 47.378128) * 111_000)));
  assert.ok(nearest > 200, `nearest corner ${nearest.toFixed(0)} m`);
  assert.deepEqual(covering(47.378128, 8.53537, 50), []);
});
