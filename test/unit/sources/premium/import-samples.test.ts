/**
 * The two bundled samples imported for real and checked against the files themselves, read
 * independently here (JSON.parse of the CityJSON; regular expressions over the CityGML), and
 * against PROJ's cs2cs for the reprojection.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { importPremiumDataset } from '../../../../src/sources/premium/import.ts';
import type { ImportReport } from '../../../../src/sources/premium/import-report.ts';
import { buildingsInBox, coverageInBox, listDatasets, openPremiumStore, type PremiumBuilding } from '../../../../src/sources/premium/store.ts';
import { SURFACE_CLASSES } from '../../../../src/sources/premium/source-model.ts';
import { pointInRing } from '../../../../src/geometry/ring.ts';
import { cs2csToLonLat, metresBetween } from '../../../support/premium-store.ts';

const ZURICH = 'data/premium/zurich_subset_lod2.json';
const BERLIN = 'data/premium/berlin_open_data_sample_data.citygml';
const dir = mkdtempSync(join(tmpdir(), 'premium-samples-'));
const storePath = join(dir, 'premium.sqlite');
let zurichReport: ImportReport, berlinReport: ImportReport;
let db: Database.Database;
let byDataset: Map<string, PremiumBuilding[]>;

interface ZurichFile {
  CityObjects: Record<string, { type: string; geographicalExtent: number[]; children?: string[]; geometry?: { boundaries: number[][][] }[] }>;
  vertices: number[][];
  transform: { scale: number[]; translate: number[] };
}
const zurich = JSON.parse(readFileSync(ZURICH, 'utf8')) as ZurichFile;
const berlinText = readFileSync(BERLIN, 'utf8');
/** Each Berlin building's id and the x, y, z of every posList point in it. */
const berlinBuildings = berlinText
  .split('<bldg:Building ')
  .slice(1)
  .map((chunk) => {
    const id = /gml:id="([^"]+)"/.exec(chunk)![1];
    const points: [number, number, number][] = [];
    for (const m of chunk.matchAll(/<gml:posList[^>]*>([^<]+)<\/gml:posList>/g)) {
      const v = m[1].trim().split(/\s+/).map(Number);
      for (let i = 0; i < v.length; i += 3) points.push([v[i], v[i + 1], v[i + 2]]);
    }
    return { id, points };
  });

before(async () => {
  zurichReport = await importPremiumDataset(storePath, ZURICH, { id: 'zurich', country: 'CH', attribution: 'Zürich credit' });
  berlinReport = await importPremiumDataset(storePath, BERLIN, { id: 'berlin', country: 'de-be' });
  db = openPremiumStore(storePath, { readonly: true });
  byDataset = new Map();
  for (const b of buildingsInBox(db, [-180, -90, 180, 90])) {
    if (!byDataset.has(b.dataset)) byDataset.set(b.dataset, []);
    byDataset.get(b.dataset)!.push(b);
  }
});
after(() => {
  db?.close();
  rmSync(dir, { recursive: true, force: true });
});

test('Zürich CityJSON: every Building with every BuildingPart, as the file lists them', () => {
  const objects = Object.entries(zurich.CityObjects);
  const buildingIds = objects.filter(([, o]) => o.type === 'Building').map(([id]) => id);
  assert.equal(buildingIds.length, 49);
  assert.equal(objects.filter(([, o]) => o.type === 'BuildingPart').length, 161);
  assert.equal(zurichReport.buildings, 49);
  assert.equal(zurichReport.parts, 161);
  assert.equal(zurichReport.skipped.count, 0);
  const stored = byDataset.get('zurich')!;
  assert.deepEqual(stored.map((b) => b.id).sort(), [...buildingIds].sort());
  for (const b of stored) assert.deepEqual(b.parts.map((p) => p.id).sort(), [...(zurich.CityObjects[b.id].children ?? [])].sort(), b.id);
  assert.ok(stored.every((b) => b.lod === 2));
});

test('Berlin CityGML: 61 buildings with their 1,125 semantic surfaces', () => {
  assert.equal(berlinBuildings.length, 61);
  assert.equal(berlinReport.buildings, 61);
  const stored = byDataset.get('berlin')!;
  assert.deepEqual(stored.map((b) => b.id).sort(), berlinBuildings.map((b) => b.id).sort());
  const counts = new Map<string, number>();
  for (const b of stored) for (const s of b.surfaces) counts.set(SURFACE_CLASSES[s.cls], (counts.get(SURFACE_CLASSES[s.cls]) ?? 0) + 1);
  assert.deepEqual(Object.fromEntries(counts), { GroundSurface: 83, RoofSurface: 249, WallSurface: 793 });
  // one building has an empty <bldg:roofType/>: no roof type rather than an empty one
  const roofTypes = [...berlinText.matchAll(/<bldg:roofType(?:\/>|>(\d*)<\/bldg:roofType>)/g)].map((m) => m[1] || null);
  assert.equal(roofTypes.length, 61);
  assert.deepEqual(stored.map((b) => b.roofType).sort(), roofTypes.sort());
  assert.ok(
    stored.every((b) => b.name === b.id),
    'gml:name is the id in this file',
  );
});

test('each building keeps the height range of its points in the file, to 1 cm', () => {
  for (const b of byDataset.get('zurich')!) {
    const extent = zurich.CityObjects[b.id].geographicalExtent;
    assert.ok(Math.abs(b.minZ - extent[2]) <= 0.01 && Math.abs(b.maxZ - extent[5]) <= 0.01, `${b.id}: ${b.minZ}–${b.maxZ} vs ${extent[2]}–${extent[5]}`);
  }
  for (const b of byDataset.get('berlin')!) {
    const zs = berlinBuildings.find((f) => f.id === b.id)!.points.map((p) => p[2]);
    const [lo, hi] = [Math.min(...zs), Math.max(...zs)];
    assert.ok(Math.abs(b.minZ - lo) <= 0.01 && Math.abs(b.maxZ - hi) <= 0.01, `${b.id}: ${b.minZ}–${b.maxZ} vs ${lo}–${hi}`);
  }
});

/** The footprint corner furthest east must be the easternmost of the building's points, converted by cs2cs. */
function checkEastCorner(building: PremiumBuilding, crs: string, points: [number, number][]): number {
  const converted = cs2csToLonLat(crs, points);
  const east = converted.reduce((a, b) => (b[0] > a[0] ? b : a));
  let corner: [number, number] = [-Infinity, 0];
  for (const polygon of building.footprint)
    for (let i = 0; i < polygon[0].length; i += 2) if (polygon[0][i] > corner[0]) corner = [polygon[0][i], polygon[0][i + 1]];
  return metresBetween(corner, east);
}

test('a footprint corner per file matches PROJ (cs2cs) to 1 mm', () => {
  const zb = byDataset.get('zurich')![0];
  const t = zurich.transform;
  const indices = new Set<number>();
  for (const part of zurich.CityObjects[zb.id].children ?? [])
    for (const g of zurich.CityObjects[part].geometry ?? []) for (const i of g.boundaries.flat(3)) indices.add(i);
  const zurichPoints = [...indices].map((i): [number, number] => [
    zurich.vertices[i][0] * t.scale[0] + t.translate[0],
    zurich.vertices[i][1] * t.scale[1] + t.translate[1],
  ]);
  assert.ok(checkEastCorner(zb, 'EPSG:2056', zurichPoints) <= 0.001);
  const bb = byDataset.get('berlin')![0];
  const berlinPoints = berlinBuildings.find((f) => f.id === bb.id)!.points.map((p): [number, number] => [p[0], p[1]]);
  assert.ok(checkEastCorner(bb, 'EPSG:25833', berlinPoints) <= 0.001);
});

test('datasets record their country, credits, counts and a coverage around every footprint', () => {
  const datasets = listDatasets(db);
  assert.deepEqual(
    datasets.map((d) => [d.id, d.country, d.crs, d.format, d.buildingCount, d.partCount]),
    [
      ['berlin', 'DE-BE', 'EPSG:25833', 'CityGML 1.0', 61, 61],
      ['zurich', 'CH', 'EPSG:2056', 'CityJSON 1.1', 49, 161],
    ],
  );
  assert.equal(datasets[1].attribution, 'Zürich credit');
  for (const d of datasets) {
    const coverage = coverageInBox(db)
      .filter((c) => c.dataset === d.id)
      .map((c) => c.polygon);
    const inside = (lon: number, lat: number) => coverage.some((p) => pointInRing(lon, lat, p[0]) && !p.slice(1).some((h) => pointInRing(lon, lat, h)));
    for (const b of byDataset.get(d.id)!) {
      for (const polygon of b.footprint)
        for (let i = 0; i < polygon[0].length; i += 2) assert.ok(inside(polygon[0][i], polygon[0][i + 1]), `${b.id} outside ${d.id}'s coverage`);
      // 20 m east of its easternmost corner is still covered (the margin is 30 m, less 5 m of simplification)
      let [lon, lat] = [-Infinity, 0];
      for (const p of b.footprint) for (let i = 0; i < p[0].length; i += 2) if (p[0][i] > lon) [lon, lat] = [p[0][i], p[0][i + 1]];
      assert.ok(inside(lon + 20 / (111_319.49 * Math.cos((lat * Math.PI) / 180)), lat), `${b.id}: coverage margin`);
    }
  }
});
