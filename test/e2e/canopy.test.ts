import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import proj4 from 'proj4';
import { GeometryResponseSchema } from '../../src/contract/response-schema.ts';
import { createLocalFrame } from '../../src/frame/local-frame.ts';
import { resolveCrs } from '../../src/sources/dem/crs.ts';
import { importOsm } from '../../src/sources/osm/import.ts';
import { OsmStore } from '../../src/sources/osm/store.ts';
import { REPO_ROOT, type ServiceConfig } from '../../src/config.ts';
import type { RunningService } from '../../src/service.ts';
import { isolatedTrees, renderChm, type SyntheticTree } from '../support/generators/synthetic-chm.ts';
import { crop, writeChmTiff } from '../support/generators/canopy-tiff.ts';
import { postContext, startTestService } from '../support/service/http.ts';
import { square } from '../support/polygons.ts';

/**
 * treeSource hybrid and canopy over HTTP, with a generated canopy height model (UTM 32N, 1 m)
 * of 800 m × 600 m over central Monaco, in two GeoTIFFs side by side: known trees, some of them
 * exactly at surveyed OSM trees.
 */
const UTM = resolveCrs(32632);
const toUtm = proj4('EPSG:4326', UTM);
const CENTRE = [43.735, 7.419] as const;
const [CE, CN] = toUtm.forward([CENTRE[1], CENTRE[0]]).map(Math.round);
const W = 800,
  H = 600,
  WEST = CE - W / 2,
  NORTH = CN + H / 2;
const SURVEYED_HEIGHT = 17.3;
/** Column where the CHM is cut into two files. */
const SPLIT = 413;

interface Node {
  type: string;
  x: number;
  y: number;
  z: number;
  scale: number;
  descriptor: Record<string, any>;
}

let dir = '';
let big: RunningService, small: RunningService;
let trees: SyntheticTree[] = [];
let surveyedAt: [number, number][] = [];

/** Whether UTM point lies on the CHM (with a margin inside its edge). */
const onChm = (e: number, n: number, inset = 0) => e >= WEST + inset && e <= WEST + W - inset && n <= NORTH - inset && n >= NORTH - H + inset;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'canopy-e2e-'));
  // surveyed trees on the CHM: some get a generated crown of a known height at exactly their position
  const storePath = join(dir, 'osm.sqlite');
  await importOsm(join(REPO_ROOT, 'data/monaco/monaco.osm.pbf'), storePath, {});
  const store = OsmStore.open(storePath);
  const [w, s] = toUtm.inverse([WEST, NORTH - H]),
    [e, n] = toUtm.inverse([WEST + W, NORTH]);
  const mapped = store
    .query({ minLon: w, minLat: s, maxLon: e, maxLat: n }, ['poi', 'other', 'landcover'])
    .filter((f) => f.kind === 'point' && f.point && f.tags.natural === 'tree')
    .map((f) => toUtm.forward(f.point!) as [number, number])
    .filter(([x, y]) => Math.abs(x - CE) < 180 && Math.abs(y - CN) < 180); // inside COVERED
  store.close();
  const placed: SyntheticTree[] = [];
  for (const [x, y] of mapped) {
    const t = { x: x - WEST - 0.5, y: NORTH - y - 0.5, height: SURVEYED_HEIGHT, crownRadius: 3 };
    if (placed.every((p) => Math.hypot(p.x - t.x, p.y - t.y) > 10) && placed.length < 12) placed.push(t);
  }
  surveyedAt = placed.map((t) => [t.x + WEST + 0.5, NORTH - t.y - 0.5]);
  const free = isolatedTrees(W, H, 900, 13).filter((t) => placed.every((p) => Math.hypot(p.x - t.x, p.y - t.y) > p.crownRadius + t.crownRadius + 6));
  trees = [...placed, ...free];
  const chm = renderChm(W, H, 1, trees, { noise: 0.05, seed: 4 });
  // two files on one pixel grid, their edge through the middle of the polygons: detection crosses it
  mkdirSync(join(dir, 'chm'));
  await writeChmTiff(join(dir, 'chm', 'west.tif'), crop(chm.data, W, 0, 0, SPLIT, H), SPLIT, H, { epsg: 32632, west: WEST, north: NORTH, pixel: 1 });
  await writeChmTiff(join(dir, 'chm', 'east.tif'), crop(chm.data, W, SPLIT, 0, W, H), W - SPLIT, H, {
    epsg: 32632,
    west: WEST + SPLIT,
    north: NORTH,
    pixel: 1,
  });
  const canopy: ServiceConfig['canopy'] = [
    { path: join(dir, 'chm'), attribution: { name: 'Generated CHM', license: 'CC0-1.0', url: 'https://example.org/chm' } },
  ];
  [big, small] = await Promise.all([startTestService({ canopy }), startTestService({ canopy, tileSize: 230 })]);
});
after(async () => {
  await Promise.all([big?.close(), small?.close()]);
  rmSync(dir, { recursive: true, force: true });
});

async function nodesOf(service: RunningService, polygon: [number, number][], settings: Record<string, unknown>) {
  const r = await postContext(service.url, service.demo!.key, { polygon, settings: { geometry: ['instances'], upAxis: 'Z', ...settings } });
  assert.equal(r.status, 200, r.text.slice(0, 300));
  GeometryResponseSchema.parse(r.json);
  const frame = createLocalFrame(polygon[0][0], polygon[0][1]);
  const nodes: Node[] = r.json.geometry[0].nodes;
  const utm = (n: Node) => toUtm.forward(frame.toLonLat(n.x, n.y)) as [number, number];
  return { json: r.json, nodes, utm, codes: r.json.warnings.map((w: { code: string }) => w.code).sort() as string[] };
}

/** Inside the CHM with room for the 1 m rounding: ~500 m × 400 m. */
const COVERED = square(CENTRE[0], CENTRE[1], 400);

test('canopy: only detected trees, each a generated tree (within 1 m, height within 0.1 m), the same whatever the tiling', async () => {
  const [a, b] = await Promise.all([nodesOf(big, COVERED, { treeSource: 'canopy' }), nodesOf(small, COVERED, { treeSource: 'canopy' })]);
  assert.deepEqual(a.codes, []);
  const detected = a.nodes.filter((n) => n.type === 'tree');
  assert.ok(detected.length > 100, `${detected.length} trees`);
  assert.ok(detected.every((n) => n.descriptor.source === 'canopy' && n.descriptor.heightSource === 'canopy'));
  let matched = 0;
  for (const n of detected) {
    const [e, nn] = a.utm(n);
    const t = trees.find((x) => Math.hypot(x.x + WEST + 0.5 - e, NORTH - x.y - 0.5 - nn) <= 1);
    if (!t) continue;
    matched++;
    assert.ok(Math.abs(n.descriptor.height - t.height) <= 0.1, `height ${n.descriptor.height} vs ${t.height}`);
    assert.ok(Math.abs(n.descriptor.crownDiameter / (2 * t.crownRadius) - 1) <= 0.2, `crown ${n.descriptor.crownDiameter} vs ${2 * t.crownRadius}`);
    assert.ok(Math.abs(n.scale - n.descriptor.height / 10) < 1e-3);
  }
  assert.ok(matched / detected.length >= 0.95, `precision ${matched}/${detected.length}`);
  const seam = trees.filter((t) => Math.abs(t.x + 0.5 - SPLIT) < t.crownRadius && onChm(t.x + WEST + 0.5, NORTH - t.y - 0.5, 110));
  const atSeam = detected.filter((n) => Math.abs(a.utm(n)[0] - WEST - SPLIT) < 10);
  assert.ok(seam.length >= 2 && atSeam.length >= seam.length, `crowns across the file edge: ${seam.length} generated, ${atSeam.length} detected near it`);
  const key = (n: Node) => `${n.descriptor.id}@${n.x.toFixed(3)},${n.y.toFixed(3)},${n.descriptor.height},${n.descriptor.crownDiameter}`;
  assert.deepEqual(
    b.nodes
      .filter((n) => n.type === 'tree')
      .map(key)
      .sort(),
    detected.map(key).sort(),
    '230 m tiles and 500 m tiles agree',
  );
  assert.equal(new Set(detected.map(key)).size, detected.length, 'no tree twice');
  assert.ok(
    detected.every((n) => /^canopy\/[0-9a-z]+\/\d+$/.test(n.descriptor.id)),
    detected[0].descriptor.id,
  );
  assert.equal(new Set(detected.map((n) => n.descriptor.id)).size, detected.length, 'one id per tree');
  const credit = a.json.attributions.find((x: { name: string }) => x.name === 'Generated CHM');
  assert.deepEqual([credit?.license, credit?.url], ['CC0-1.0', 'https://example.org/chm']);
});

test('hybrid: surveyed trees keep their place and take the measured size; no procedural fill where the canopy model has data', async () => {
  const { nodes, utm, codes } = await nodesOf(big, COVERED, { treeSource: 'hybrid' });
  assert.deepEqual(codes, []);
  const osm = nodes.filter((n) => n.type === 'tree' && n.descriptor.source === 'osm');
  const canopy = nodes.filter((n) => n.type === 'tree' && n.descriptor.source === 'canopy');
  assert.equal(nodes.filter((n) => n.type === 'tree' && n.descriptor.source === 'procedural').length, 0);
  let measured = 0;
  for (const [e, nn] of surveyedAt) {
    const s = osm.find((n) => Math.hypot(utm(n)[0] - e, utm(n)[1] - nn) < 0.75);
    if (!s) continue; // outside the polygon, or in a building
    measured++;
    assert.equal(s.descriptor.heightSource, 'canopy');
    assert.ok(Math.abs(s.descriptor.height - SURVEYED_HEIGHT) <= 0.1, `${s.descriptor.height}`);
    assert.ok(!canopy.some((n) => Math.hypot(utm(n)[0] - e, utm(n)[1] - nn) < 3), 'the same tree is not added twice');
  }
  assert.ok(measured >= 3, `${measured} surveyed trees measured of ${surveyedAt.length}: ${JSON.stringify(surveyedAt)}; osm ${osm.length}`);
  assert.ok(canopy.length > 100);
});

test('partly covered: hybrid detects where covered and keeps the standard source elsewhere, and says so', async () => {
  const polygon = square(43.735, 7.42, 2500);
  const { nodes, utm, json, codes } = await nodesOf(big, polygon, { treeSource: 'hybrid' });
  assert.deepEqual(codes, ['canopy_partial']);
  const w = json.warnings[0];
  assert.equal(w.details.usedTreeSourceElsewhere, 'standard');
  // the CHM is 800 m × 600 m inside the 2500 m square: 7.7% of it
  assert.ok(Math.abs(w.details.coveredShare - (W * H) / 2500 ** 2) < 0.01, `coveredShare ${w.details.coveredShare}`);
  const procedural = nodes.filter((n) => n.type === 'tree' && n.descriptor.source === 'procedural');
  assert.ok(procedural.length > 100, 'standard fill outside');
  const onIt = procedural.filter((n) => onChm(...utm(n), 0.01)); // the raster's edge is the edge of its data
  assert.equal(
    onIt.length,
    0,
    `procedural trees on the canopy model: ${JSON.stringify(onIt.slice(0, 3).map((n) => [utm(n), n.descriptor]))} (CHM ${WEST}–${WEST + W}, ${NORTH - H}–${NORTH})`,
  );
  assert.ok(nodes.filter((n) => n.descriptor.source === 'canopy').every((n) => onChm(...utm(n), -1)));
  const canopy = await nodesOf(big, polygon, { treeSource: 'canopy' });
  assert.deepEqual(canopy.codes, ['canopy_partial']);
  assert.equal(canopy.json.warnings[0].details.usedTreeSourceElsewhere, 'none');
  assert.equal(canopy.nodes.filter((n) => n.descriptor.source === 'procedural' || (n.type === 'tree' && n.descriptor.source === 'osm')).length, 0);
});

test('no canopy data for the area: hybrid is the standard source, canopy has no trees; both say canopy_unavailable', async () => {
  const away = square(43.7475, 7.4385, 300); // north-east of the CHM, still in the extract
  const [standard, hybrid, canopy] = await Promise.all([
    nodesOf(big, away, {}),
    nodesOf(big, away, { treeSource: 'hybrid' }),
    nodesOf(big, away, { treeSource: 'canopy' }),
  ]);
  assert.deepEqual(hybrid.codes, ['canopy_unavailable']);
  assert.deepEqual(hybrid.json.warnings[0].details, { treeSource: 'hybrid', usedTreeSource: 'standard', reason: 'no_coverage' });
  assert.deepEqual(hybrid.nodes, standard.nodes);
  assert.deepEqual(canopy.codes, ['canopy_unavailable']);
  assert.equal(canopy.json.warnings[0].details.usedTreeSource, 'none');
  assert.equal(canopy.nodes.filter((n) => n.type === 'tree').length, 0);
  assert.ok(!hybrid.json.attributions.some((x: { name: string }) => x.name === 'Generated CHM'), 'no credit for a source that gave nothing');
});

test('canopyMaxTrees keeps the surveyed shrubs, then the tallest detected trees, and says so', async () => {
  const plants = (await nodesOf(big, COVERED, { treeSource: 'canopy' })).nodes.filter((n) => n.type === 'tree' || n.type === 'shrubbery');
  const shrubs = plants.filter((n) => n.type === 'shrubbery').length;
  const cap = 40;
  const { nodes, json, codes } = await nodesOf(small, COVERED, { treeSource: 'canopy', canopyMaxTrees: cap });
  assert.deepEqual(codes, ['tree_cap_applied']);
  assert.deepEqual(json.warnings[0].details, { canopyMaxTrees: cap, trees: plants.length, dropped: plants.length - cap });
  assert.equal(nodes.filter((n) => n.type === 'shrubbery').length, shrubs);
  const kept = nodes
    .filter((n) => n.type === 'tree')
    .map((n) => n.descriptor.height)
    .sort((a, b) => b - a);
  assert.deepEqual(
    kept,
    plants
      .filter((n) => n.type === 'tree')
      .map((n) => n.descriptor.height)
      .sort((a, b) => b - a)
      .slice(0, cap - shrubs),
  );
});

test('a polygon smaller than the coverage lattice still gets its trees and no false warning', async () => {
  const { nodes, codes } = await nodesOf(big, square(CENTRE[0], CENTRE[1], 4), { treeSource: 'canopy' });
  assert.deepEqual(codes, []);
  assert.ok(nodes.every((n) => n.type !== 'tree' || n.descriptor.source === 'canopy'));
});
