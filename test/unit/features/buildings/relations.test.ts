/**
 * Parts mapped with `type=building` relations belong to the relation's outline whatever the
 * geometry, and every tile of a request decides alike (see test/support/generators/building-relations.ts
 * for the layout: a part sticking into a neighbour, parts 200 m from their outline, and a part in
 * the middle of a long outline that its relation gives to another one).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importOsm } from '../../../../src/sources/osm/import.ts';
import { OsmStore } from '../../../../src/sources/osm/store.ts';
import type { OsmFeature } from '../../../../src/osm-model/feature.ts';
import { createLocalFrame } from '../../../../src/frame/local-frame.ts';
import { buildBuildings } from '../../../../src/geometry/buildings/from-osm.ts';
import { assignPartsToOutlines } from '../../../../src/geometry/buildings/parts.ts';
import { loadRoofs } from '../../../../src/geometry/buildings/roofs/index.ts';
import { normalizeFootprint } from '../../../../src/geometry/ring.ts';
import type { Footprint } from '../../../../src/geometry/types.ts';
import { parseContextRequest } from '../../../../src/contract/parse-request.ts';
import { planTasks } from '../../../../src/features/index.ts';
import { buildTile } from '../../../../src/tile/build-tile.ts';
import { buildingRelationsPbf, ORIGIN, stripPolygon } from '../../../support/generators/building-relations.ts';

const dir = mkdtempSync(join(tmpdir(), 'buildings-relations-'));
const dbPath = join(dir, 'osm.sqlite');
let features: OsmFeature[];

before(async () => {
  await loadRoofs();
  writeFileSync(join(dir, 'fixture.osm.pbf'), buildingRelationsPbf());
  await importOsm(join(dir, 'fixture.osm.pbf'), dbPath);
  const store = OsmStore.open(dbPath);
  features = store.query({ minLon: -180, minLat: -90, maxLon: 180, maxLat: 90 }, ['building', 'building_part']);
  store.close();
});
after(() => rmSync(dir, { recursive: true, force: true }));

/** Relation membership wins; way/103 (no relation) keeps the geometric rule. */
const BY_RELATION = {
  'way/101': 'way/100', // sticks out of way/100, its interior point lies in way/102
  'way/103': 'way/102',
  'way/121': 'way/120',
  'relation/400': 'way/120',
  'way/131': 'way/132', // inside way/130
};

/** Each built item's id → its parentId (null when it has none), failing on ids built twice. */
function parents(descriptors: Record<string, unknown>[]): Record<string, string | null> {
  const out: Record<string, string | null> = {};
  for (const d of descriptors) {
    const id = String(d.id);
    assert.ok(!(id in out), `${id} built twice`);
    out[id] = d.parentId === undefined ? null : String(d.parentId);
  }
  return out;
}

function partParents(all: Record<string, string | null>): Record<string, string | null> {
  return Object.fromEntries(Object.keys(BY_RELATION).map((id) => [id, id in all ? all[id] : 'missing']));
}

function buildAll(input: OsmFeature[]) {
  const frame = createLocalFrame(ORIGIN[0], ORIGIN[1]);
  const polygon = [-5000, -5000, 5000, -5000, 5000, 5000, -5000, 5000];
  return buildBuildings(input, { frame, polygon, defaultLevels: 1, defaultLevelHeight: 4, defaultRoofType: 'flat', owns: () => true });
}

test('from-osm: a relation part belongs to its outline even outside it; a part without relation keeps the geometric rule', () => {
  const built = parents(buildAll(features).map((b) => b.descriptor));
  assert.deepEqual(partParents(built), BY_RELATION);
  // every outline is there too (its parts leave some of it uncovered)
  for (const id of ['way/100', 'way/102', 'way/120', 'way/130', 'way/132']) assert.equal(built[id], null, id);
  // the same features without membership go by geometry: what the relations overrule
  const geometric = parents(buildAll(features.map(({ buildingRelation: _, ...f }) => f)).map((b) => b.descriptor));
  assert.deepEqual(partParents(geometric), { 'way/101': 'way/102', 'way/103': 'way/102', 'way/121': null, 'relation/400': null, 'way/131': 'way/130' });
});

test('from-osm: a part whose relation outline is not among the features keeps the geometric rule', () => {
  const withoutOutline = features.filter((f) => f.id !== 'way/100');
  assert.equal(parents(buildAll(withoutOutline).map((b) => b.descriptor))['way/101'], 'way/102');
});

const rect = (x0: number, y0: number, x1: number, y1: number): Footprint => normalizeFootprint({ outer: [x0, y0, x1, y0, x1, y1, x0, y1], holes: [] })!;

test('assignPartsToOutlines: shared relation first (smallest such outline), geometry otherwise', () => {
  const outlines = [[rect(0, 0, 100, 100)], [rect(200, 0, 210, 10)], [rect(300, 0, 350, 50)]];
  const parts = [[rect(10, 10, 20, 20)], [rect(10, 10, 20, 20)], [rect(10, 10, 20, 20)], [rect(400, 0, 410, 10)]];
  const relations = {
    outlines: [[], ['r1', 'r2'], ['r1']],
    parts: [[], ['r1'], ['r9'], ['r2']],
  };
  assert.deepEqual(assignPartsToOutlines(outlines, parts, relations), [0, 1, 0, 1]);
  assert.deepEqual(assignPartsToOutlines(outlines, parts), [0, 0, 0, -1]);
});

test('tiles: every tile assigns parts alike, whether the outline, the part or neither lies in it', async () => {
  const request = parseContextRequest({ polygon: stripPolygon(), settings: { geometry: ['buildings'] } });
  const plan = planTasks(request, { tileSize: 100, storePath: dbPath, dem: null });
  assert.ok(plan.tasks.length >= 7, `${plan.tasks.length} tiles`);
  const descriptors: Record<string, unknown>[] = [];
  for (const task of plan.tasks) {
    const result = await buildTile(task);
    const json = Buffer.from(result.groups.buildings.json).toString('utf8');
    if (json) descriptors.push(...(JSON.parse(`[${json}]`) as { descriptor: Record<string, unknown> }[]).map((m) => m.descriptor));
  }
  const built = parents(descriptors);
  assert.deepEqual(partParents(built), BY_RELATION);
  assert.deepEqual(Object.keys(built).sort(), [...Object.keys(BY_RELATION), 'way/100', 'way/102', 'way/120', 'way/130', 'way/132'].sort());
});
