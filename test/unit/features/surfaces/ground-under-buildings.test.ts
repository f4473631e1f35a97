/**
 * The ground under buildings through the real import and tile path (surfaces family with the
 * store's building groups): it is cut where a building stands and runs on under parts that start
 * above the ground — an outline whose parts all float (the Empire State Building's and PENN 2's
 * case) leaves no hole, a podium does.
 */
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLocalFrame } from '../../../../src/frame/local-frame.ts';
import { importOsm } from '../../../../src/sources/osm/import.ts';
import { writeOsmPbf, type NodeInput, type WayInput } from '../../../support/generators/pbf-writer.ts';
import { parseContextRequest } from '../../../../src/contract/parse-request.ts';
import { planTasks } from '../../../../src/features/index.ts';
import { buildTile } from '../../../../src/tile/build-tile.ts';
import { loadRoofs } from '../../../../src/geometry/buildings/roofs/index.ts';

const ORIGIN: [number, number] = [43.7347, 7.4206];
const frame = createLocalFrame(ORIGIN[0], ORIGIN[1]);

type Rect = [number, number, number, number];
const WAYS: Record<number, { rect: Rect; tags: Record<string, string> }> = {
  // every part floats: the outline has no min_height, but nothing of it stands on the ground
  1: { rect: [0, 0, 60, 40], tags: { building: 'yes', height: '40' } },
  2: { rect: [0, 0, 30, 40], tags: { 'building:part': 'yes', min_height: '6', height: '40' } },
  3: { rect: [30, 0, 60, 40], tags: { 'building:part': 'yes', 'building:min_level': '2', 'building:levels': '10' } },
  // a podium under half of the outline, a floating part over the other half
  4: { rect: [100, 0, 160, 40], tags: { building: 'yes', height: '30' } },
  5: { rect: [100, 0, 130, 40], tags: { 'building:part': 'yes', height: '6' } },
  6: { rect: [130, 0, 160, 40], tags: { 'building:part': 'yes', min_height: '6', height: '30' } },
  // an outline whose part covers its west half only: the uncovered east half stands as the outline
  7: { rect: [0, 60, 40, 80], tags: { building: 'yes' } },
  8: { rect: [0, 60, 20, 80], tags: { 'building:part': 'yes', min_height: '3', 'building:levels': '3' } },
};

interface Item {
  vertices: number[];
  indices: number[];
  descriptor: Record<string, unknown>;
}
const ground: Item[] = [];
const buildings: Item[] = [];

before(async () => {
  await loadRoofs();
  const nodes: NodeInput[] = [];
  const ways: WayInput[] = [];
  for (const [key, { rect, tags }] of Object.entries(WAYS)) {
    const id = Number(key);
    const [x0, y0, x1, y1] = rect;
    const corners: [number, number][] = [
      [x0, y0],
      [x1, y0],
      [x1, y1],
      [x0, y1],
    ];
    const refs = corners.map(([x, y], k) => {
      const [lon, lat] = frame.toLonLat(x, y);
      nodes.push({ id: id * 10 + k, lon, lat });
      return id * 10 + k;
    });
    ways.push({ id, tags, refs: [...refs, refs[0]] });
  }
  const dir = mkdtempSync(join(tmpdir(), 'cc-ground-under-'));
  writeFileSync(join(dir, 'x.osm.pbf'), writeOsmPbf({ nodes, ways, relations: [] }));
  await importOsm(join(dir, 'x.osm.pbf'), join(dir, 'osm.sqlite'));
  const corners = [
    [-10, -10],
    [170, -10],
    [170, 90],
    [-10, 90],
    [-10, -10],
  ].map(([x, y]) => {
    const [lon, lat] = frame.toLonLat(x, y);
    return [lat, lon];
  });
  const req = parseContextRequest({
    polygon: corners,
    origin: ORIGIN,
    settings: { geometry: ['buildings', 'surface'], crs: 'local', upAxis: 'Z', indexedMeshes: true },
  });
  for (const task of planTasks(req, { tileSize: 50, storePath: join(dir, 'osm.sqlite'), dem: null }).tasks) {
    const groups = (await buildTile(task)).groups;
    for (const [name, into] of [
      ['surface', ground],
      ['buildings', buildings],
    ] as const) {
      const json = Buffer.from(groups[name]?.json ?? []).toString('utf8');
      if (json) into.push(...(JSON.parse(`[${json}]`) as Item[]));
    }
  }
});

/** Whether some ground triangle covers (x, y). */
function groundAt(x: number, y: number): boolean {
  for (const g of ground) {
    const v = g.vertices,
      ix = g.indices;
    for (let t = 0; t < ix.length; t += 3) {
      const [a, b, c] = [3 * ix[t], 3 * ix[t + 1], 3 * ix[t + 2]];
      const d1 = (x - v[b]) * (v[a + 1] - v[b + 1]) - (v[a] - v[b]) * (y - v[b + 1]);
      const d2 = (x - v[c]) * (v[b + 1] - v[c + 1]) - (v[b] - v[c]) * (y - v[c + 1]);
      const d3 = (x - v[a]) * (v[c + 1] - v[a + 1]) - (v[c] - v[a]) * (y - v[a + 1]);
      if ((d1 >= 0 && d2 >= 0 && d3 >= 0) || (d1 <= 0 && d2 <= 0 && d3 <= 0)) return true;
    }
  }
  return false;
}

/** Points 1 m apart inside a rectangle, kept 0.5 m off its edges. */
function samples([x0, y0, x1, y1]: Rect): [number, number][] {
  const out: [number, number][] = [];
  for (let x = x0 + 0.5; x < x1; x += 1) for (let y = y0 + 0.5; y < y1; y += 1) out.push([x, y]);
  return out;
}

test('the ground runs on under an outline whose parts all float', () => {
  assert.ok(ground.length > 0 && buildings.length > 0);
  const holes = samples(WAYS[1].rect).filter(([x, y]) => !groundAt(x, y));
  assert.deepEqual(holes.length, 0, `no ground at ${holes.slice(0, 3).join(' ')} …`);
});

test('the ground is cut under a podium and runs on under the part floating beside it', () => {
  assert.ok(
    samples(WAYS[5].rect).every(([x, y]) => !groundAt(x, y)),
    'no ground under the podium',
  );
  assert.ok(
    samples(WAYS[6].rect).every(([x, y]) => groundAt(x, y)),
    'ground under the floating part',
  );
});

test("the outline's uncovered area is cut where it stands, the floating part's is not", () => {
  const remainder = buildings.filter((b) => b.descriptor.id === 'way/7');
  assert.equal(remainder.length, 1);
  assert.equal(remainder[0].descriptor.outlineRemainder, true);
  assert.ok(samples([20, 60, 40, 80]).every(([x, y]) => !groundAt(x, y)));
  assert.ok(samples(WAYS[8].rect).every(([x, y]) => groundAt(x, y)));
});
