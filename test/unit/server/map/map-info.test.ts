/**
 * What the page's map is told: the OSM store's extent, and where premium data exists — the
 * coverage polygons of a real premium import (the Zürich sample), closed GeoJSON rings around its
 * buildings — and nothing about premium data on an install without a premium store.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { REPO_ROOT } from '../../../../src/config.ts';
import { MapInfo } from '../../../../src/server/map/map-info.ts';
import { importOsm } from '../../../../src/sources/osm/import.ts';
import { importPremiumDataset } from '../../../../src/sources/premium/import.ts';
import { buildingsInBox, openPremiumStore } from '../../../../src/sources/premium/store.ts';

const dir = mkdtempSync(join(tmpdir(), 'cc-map-info-'));
const storePath = join(dir, 'osm.sqlite');
const premiumPath = join(dir, 'premium.sqlite');
before(async () => {
  await importOsm(join(REPO_ROOT, 'data/monaco/monaco.osm.pbf'), storePath, {});
});
after(() => rmSync(dir, { recursive: true, force: true }));

type Info = { storeExtent: number[] | null; premiumCoverage: { features: { properties: { dataset: string }; geometry: { coordinates: number[][][] } }[] } };

test('the store extent is Monaco, and there is no premium coverage without a premium store', () => {
  const info = new MapInfo({ storePath, premiumPath, styleUrl: null }).info() as Info;
  const [w, s, e, n] = info.storeExtent!;
  assert.ok(w < 7.42 && e > 7.42 && s < 43.735 && n > 43.735, JSON.stringify(info.storeExtent));
  assert.deepEqual(info.premiumCoverage.features, []);
});

test('premium coverage: closed rings of the imported dataset that hold its buildings', async () => {
  await importPremiumDataset(premiumPath, join(REPO_ROOT, 'data/premium/zurich_subset_lod2.json'), { id: 'zurich', country: 'CH', name: 'Zürich sample' });
  const info = new MapInfo({ storePath, premiumPath, styleUrl: 'https://tiles.example.com/style.json' }).info() as Info & { styleUrl: string };
  assert.equal(info.styleUrl, 'https://tiles.example.com/style.json');
  const features = info.premiumCoverage.features;
  assert.ok(features.length > 0);
  const db = openPremiumStore(premiumPath, { readonly: true });
  const buildings = buildingsInBox(db, [-180, -90, 180, 90]);
  db.close();
  assert.ok(buildings.length > 0);
  for (const f of features) {
    assert.equal(f.properties.dataset, 'zurich');
    for (const ring of f.geometry.coordinates) assert.deepEqual(ring[0], ring.at(-1), 'closed ring');
  }
  // every building's footprint vertex lies in the box of the coverage
  const all = features.flatMap((f) => f.geometry.coordinates[0]);
  const [minLon, maxLon] = [Math.min(...all.map((p) => p[0])), Math.max(...all.map((p) => p[0]))];
  const [minLat, maxLat] = [Math.min(...all.map((p) => p[1])), Math.max(...all.map((p) => p[1]))];
  for (const b of buildings) {
    for (const ring of b.footprint[0] ?? []) {
      for (let i = 0; i < ring.length; i += 2) assert.ok(ring[i] >= minLon && ring[i] <= maxLon && ring[i + 1] >= minLat && ring[i + 1] <= maxLat);
    }
  }
});
