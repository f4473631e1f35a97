/**
 * Premium buildings in the buildings group, on the bundled samples: a request over Berlin's sample
 * and one over part of Zürich's return the buildings the store holds there (once each, whatever
 * the tiling, also those crossing a seam), closed and outward unless a note says why, standing at
 * z = 0 without terrain and on the lowest ground under their footprint with it; the OSM buildings
 * under them are replaced (name and type carried over), those beside them kept; `buildingSources:
 * global` and a request not entitled to the dataset get OSM only. Meshes prepared at import equal
 * those a request builds itself.
 */
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { footprintInteriorPoint } from '../../../../src/geometry/buildings/premium-merge.ts';
import { inspectMesh } from '../../../../src/geometry/mesh-checks.ts';
import { footprintsInBox, premiumReader, type PremiumFootprint } from '../../../../src/sources/premium/request-reads.ts';
import { listDatasets, openPremiumStore } from '../../../../src/sources/premium/store.ts';
import { buildingWay } from '../../../support/fakes/osm-building-source.ts';
import { boxPolygon, buildingOf, runTiles, sampleStore, type BuiltMesh } from '../../../support/premium/tile-run.ts';

let store = '';
let berlinBox: [number, number, number, number];
let berlin: PremiumFootprint[] = [];
const ZURICH_PART: [number, number, number, number] = [8.515, 47.33, 8.545, 47.355];

before(async () => {
  store = await sampleStore();
  const db = premiumReader(store)!;
  const b = listDatasets(db).find((d) => d.id === 'berlin-sample')!.bbox!;
  berlinBox = [b[0] - 0.0003, b[1] - 0.0003, b[2] + 0.0003, b[3] + 0.0003];
  berlin = footprintsInBox(db, berlinBox, new Set(['berlin-sample']));
});

/** Meshes grouped by building id. */
function byBuilding(meshes: readonly BuiltMesh[]): Map<string, BuiltMesh[]> {
  const out = new Map<string, BuiltMesh[]>();
  for (const m of meshes) out.set(buildingOf(m), [...(out.get(buildingOf(m)) ?? []), m]);
  return out;
}

function minZ(m: BuiltMesh): number {
  let z = Infinity;
  for (let k = 2; k < m.vertices.length; k += 3) z = Math.min(z, m.vertices[k]);
  return z;
}

function checkMeshes(meshes: readonly BuiltMesh[]): { closed: number; open: number } {
  let closed = 0,
    open = 0;
  for (const m of meshes) {
    const d = m.descriptor;
    assert.equal(d.type, 'building');
    assert.equal(d.dataTier, 'premium');
    assert.match(String(d.id), /^(berlin|zurich)-sample:/);
    assert.ok(typeof d.datasetName === 'string' && typeof d.source === 'string' && [0, 1, 2].includes(d.lod as number), JSON.stringify(d));
    const ranges = d.surfaces as Record<string, [number, number]>;
    const triangles = m.indices.length / 3;
    assert.equal(
      Object.values(ranges).reduce((a, [, n]) => a + n, 0),
      triangles,
      `${d.id}: surface ranges cover every triangle`,
    );
    assert.ok(ranges.roof[1] > 0 && ranges.wall[1] > 0, `${d.id}: roof and walls`);
    const report = inspectMesh({ positions: Float64Array.from(m.vertices), indices: Uint32Array.from(m.indices) });
    assert.equal(report.degenerate, 0, `${d.id}: degenerate triangles`);
    const notedOpen = ((d.dataNotes as string[] | undefined) ?? []).some((n) => n.includes('not a closed solid'));
    if (report.closed) {
      closed++;
      assert.ok(report.volume > 0, `${d.id}: outward`);
    } else {
      open++;
      assert.ok(notedOpen, `${d.id}: open without a note`);
    }
    assert.ok(
      Math.abs((d.buildingHeight as number) - Math.max(...m.vertices.filter((_, k) => k % 3 === 2)) + minZ(m) - (d.buildingMinHeight as number)) < 0.01,
    );
  }
  return { closed, open };
}

test('Berlin sample: its 61 buildings, once each whatever the tiling, closed and outward, standing at z = 0; the dataset credited', async () => {
  for (const tileSize of [60, 100, 250]) {
    const run = await runTiles(store, boxPolygon(...berlinBox), { tileSize });
    const buildings = byBuilding(run.meshes);
    assert.equal(buildings.size, 61, `tile ${tileSize}: ${buildings.size} buildings`);
    assert.equal(run.meshes.length, 61, 'one mesh per building (Berlin buildings have no parts)');
    assert.deepEqual([...buildings.keys()].sort(), berlin.map((f) => `berlin-sample:${f.id}`).sort());
    const { closed, open } = checkMeshes(run.meshes);
    assert.ok(closed >= 50, `${closed} closed, ${open} open (with notes)`);
    for (const [id, parts] of buildings) assert.ok(Math.abs(Math.min(...parts.map(minZ))) < 0.002, `${id} stands at z = 0`);
    assert.deepEqual(run.premiumDatasets, ['berlin-sample']);
    assert.ok(run.attributions.includes('premium:berlin-sample') && !run.attributions.includes('premium:zurich-sample'));
    // a building crossing a seam of this tiling is built once, by one tile, whole
    const seams = run.meshes.filter((m) => crossesSeam(m, tileSize));
    if (tileSize <= 100) assert.ok(seams.length >= 5, `tile ${tileSize}: ${seams.length} buildings cross a seam`);
  }
});

/** Whether a mesh's x or y extent crosses a multiple of the tile size (a seam of the request's tile grid). */
function crossesSeam(m: BuiltMesh, tileSize: number): boolean {
  for (const axis of [0, 1]) {
    const v = m.vertices.filter((_, k) => k % 3 === axis);
    const lo = Math.min(...v),
      hi = Math.max(...v);
    if (Math.floor(lo / tileSize) !== Math.floor(hi / tileSize)) return true;
  }
  return false;
}

test('part of the Zürich sample: the buildings whose interior point lies in the polygon, each with all its parts', async () => {
  const db = premiumReader(store)!;
  const [w, s, e, n] = ZURICH_PART;
  const expected = footprintsInBox(db, [w - 0.01, s - 0.01, e + 0.01, n + 0.01], new Set(['zurich-sample'])).filter((f) => {
    const [lon, lat] = footprintInteriorPoint(f.footprint)!;
    return lon > w && lon < e && lat > s && lat < n;
  });
  assert.ok(expected.length >= 8, `${expected.length} Zürich buildings in the part`);
  const run = await runTiles(store, boxPolygon(...ZURICH_PART), { tileSize: 500 });
  const buildings = byBuilding(run.meshes);
  assert.deepEqual([...buildings.keys()].sort(), expected.map((f) => `zurich-sample:${f.id}`).sort());
  const stored = premiumReader(store)!.prepare("SELECT source_id, parts FROM buildings WHERE dataset = 'zurich-sample'").all() as {
    source_id: string;
    parts: string;
  }[];
  const partCount = new Map(stored.map((r) => [r.source_id, (JSON.parse(r.parts) as unknown[]).length]));
  for (const [id, meshes] of buildings) assert.equal(meshes.length, partCount.get(id.slice('zurich-sample:'.length)), `${id}: every part`);
  assert.ok(run.meshes.length > buildings.size, 'Zürich buildings have parts');
  checkMeshes(run.meshes);
  assert.deepEqual(run.premiumDatasets, ['zurich-sample']);
});

test('on terrain a premium building stands on the lowest ground under its footprint (a sloping plane)', async () => {
  const plane = (x: number, y: number) => 34 + 0.08 * x - 0.05 * y;
  const half = 700,
    step = 10,
    columns = (2 * half) / step + 1;
  const heights = new Float32Array(columns * columns);
  for (let r = 0; r < columns; r++) for (let c = 0; c < columns; c++) heights[r * columns + c] = plane(-half + c * step, half - r * step);
  const ground = { bbox: { minX: -half, minY: -half, maxX: half, maxY: half }, columns, rows: columns, heights };
  const run = await runTiles(store, boxPolygon(...berlinBox), { tileSize: 100, ground });
  assert.equal(byBuilding(run.meshes).size, 61);
  for (const m of run.meshes) {
    const id = String(m.descriptor.id).slice('berlin-sample:'.length);
    const fp = berlin.find((f) => f.id === id)!;
    let lowest = Infinity;
    for (const polygon of fp.footprint)
      for (let k = 0; k < polygon[0].length; k += 2) lowest = Math.min(lowest, plane(...run.frame.toLocal(polygon[0][k], polygon[0][k + 1])));
    assert.ok(Math.abs(minZ(m) - lowest) < 0.01, `${id}: base ${minZ(m)} on the lowest ground ${lowest}`);
    assert.ok(Math.abs((m.descriptor.groundElevation as number) - lowest) < 0.01);
  }
});

test('OSM buildings under premium ones are replaced (their name and type carried over), those beside them kept', async () => {
  const target = berlin[10];
  const [tw, ts, te, tn] = target.box;
  const osm = [
    buildingWay(1, [tw, ts, te, ts, te, tn, tw, tn], { name: 'Haus am Test', building: 'apartments' }), // the premium building's own box: replaced
    buildingWay(2, [
      berlinBox[2] + 0.0001,
      berlinBox[1],
      berlinBox[2] + 0.0002,
      berlinBox[1],
      berlinBox[2] + 0.0002,
      berlinBox[1] + 0.0001,
      berlinBox[2] + 0.0001,
      berlinBox[1] + 0.0001,
    ]), // outside the sample: kept
  ];
  const polygon = boxPolygon(berlinBox[0], berlinBox[1], berlinBox[2] + 0.0004, berlinBox[3]);
  const run = await runTiles(store, polygon, { osm, tileSize: 100 });
  const ids = run.meshes.map((m) => String(m.descriptor.id));
  assert.ok(!ids.includes('way/1'), 'the OSM building under a premium one is replaced');
  assert.ok(ids.includes('way/2'), 'the OSM building outside premium coverage is kept');
  const premium = run.meshes.find((m) => m.descriptor.id === `berlin-sample:${target.id}`)!;
  assert.equal(premium.descriptor.replacesOsm, 'way/1');
  assert.equal(premium.descriptor.buildingType, 'apartments');
  assert.equal(premium.descriptor.osmName, 'Haus am Test');
  assert.deepEqual(run.attributions, ['osm', 'premium:berlin-sample']);
  // not entitled to Berlin, or asking for global data only: OSM as it is
  for (const o of [{ datasets: ['zurich-sample'] }, { settings: { buildingSources: 'global' } }]) {
    const global = await runTiles(store, polygon, { osm, tileSize: 100, ...o });
    assert.deepEqual(global.meshes.map((m) => String(m.descriptor.id)).sort(), ['way/1', 'way/2']);
    assert.deepEqual(global.premiumDatasets, []);
    assert.deepEqual(global.attributions, ['osm']);
  }
});

test('a premium building stands whole where the polygon cuts it (never clipped without cropScene); cropScene cuts it and drops its ranges', async () => {
  const [w, s, e, n] = berlinBox;
  const cut = [w, s, (w + e) / 2, n] as [number, number, number, number];
  const run = await runTiles(store, boxPolygon(...cut), { tileSize: 100 });
  const crossing = run.meshes.filter((m) => m.descriptor.intersectsBoundary === true);
  assert.ok(crossing.length > 0, 'buildings crossing the polygon edge');
  const frameEdge = run.frame.toLocal(cut[2], (s + n) / 2)[0];
  assert.ok(
    crossing.some((m) => Math.max(...m.vertices.filter((_, k) => k % 3 === 0)) > frameEdge + 1),
    'a crossing building reaches past the edge',
  );
  const cropped = await runTiles(store, boxPolygon(...cut), { tileSize: 100, settings: { cropScene: true } });
  const cutOnes = cropped.meshes.filter((m) => m.descriptor.cropped === true);
  assert.ok(cutOnes.length > 0);
  for (const m of cutOnes) assert.equal(m.descriptor.surfaces, undefined);
});

test('meshes prepared at import are the meshes a request would build (a store without them builds them per request)', async () => {
  const copy = join(mkdtempSync(join(tmpdir(), 'cc-premium-copy-')), 'premium.sqlite');
  const db = openPremiumStore(store);
  try {
    db.exec(`VACUUM INTO '${copy}'`);
  } finally {
    db.close();
  }
  const old = openPremiumStore(copy);
  try {
    assert.ok((old.prepare('SELECT count(*) AS n FROM building_meshes').get() as { n: number }).n >= 110);
    old.exec('DROP TABLE building_meshes');
  } finally {
    old.close();
  }
  chmodSync(copy, 0o444); // read-only, as a worker opens it: the table is not created again
  const prepared = await runTiles(store, boxPolygon(...berlinBox), { tileSize: 100 });
  const built = await runTiles(copy, boxPolygon(...berlinBox), { tileSize: 100 });
  assert.equal(built.meshes.length, 61);
  const byId = new Map(built.meshes.map((m) => [String(m.descriptor.id), m]));
  for (const m of prepared.meshes) {
    const other = byId.get(String(m.descriptor.id))!;
    assert.deepEqual(other.indices, m.indices, `${m.descriptor.id}: triangles`);
    assert.deepEqual(other.descriptor, m.descriptor);
    for (let k = 0; k < m.vertices.length; k++) assert.ok(Math.abs(other.vertices[k] - m.vertices[k]) <= 0.0011, `${m.descriptor.id}: vertex ${k}`);
  }
});
