/**
 * Underground and elevated structures on a small synthetic extract, through the real import and
 * tile path: underground buildings and parts are left out, a plain negative layer is not enough
 * to drop a building, a bridge part keeps its deck above ground with the smallest of several
 * min_height values, and a part whose own bottom is above its outline's top keeps its volume.
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
import { inspectMesh } from '../../../../src/geometry/mesh-checks.ts';

const ORIGIN: [number, number] = [43.7347, 7.4206];
const frame = createLocalFrame(ORIGIN[0], ORIGIN[1]);

/** id → [x0, y0, x1, y1] in local metres, and tags. */
const WAYS: Record<number, { rect: [number, number, number, number]; tags: Record<string, string> }> = {
  1: { rect: [0, 0, 20, 20], tags: { building: 'yes', location: 'underground' } },
  2: { rect: [30, 0, 50, 20], tags: { building: 'retail', layer: '-1', indoor: 'yes' } },
  3: { rect: [60, 0, 80, 20], tags: { building: 'yes', layer: '-1' } },
  4: { rect: [0, 40, 60, 60], tags: { building: 'yes', height: '10' } },
  5: { rect: [0, 40, 30, 60], tags: { 'building:part': 'yes', height: '10' } },
  6: { rect: [30, 40, 60, 60], tags: { 'building:part': 'bridge', bridge: 'yes', min_height: '5;5.5', height: '8' } },
  7: { rect: [10, 45, 20, 55], tags: { 'building:part': 'yes', location: 'underground', min_height: '-6', height: '0' } },
  8: { rect: [70, 40, 90, 60], tags: { building: 'yes', height: '4' } },
  9: { rect: [70, 40, 90, 60], tags: { 'building:part': 'yes', min_height: '6' } },
  // an underground station with a tower standing on it (its own building=* beside building:part)
  // and a part of the station's own
  10: { rect: [0, 80, 60, 140], tags: { building: 'train_station', location: 'underground', layer: '-1' } },
  11: { rect: [10, 90, 30, 110], tags: { building: 'office', 'building:part': 'yes', height: '100' } },
  12: { rect: [40, 90, 50, 100], tags: { 'building:part': 'yes', height: '5' } },
};

interface Built {
  vertices: number[];
  indices: number[];
  descriptor: Record<string, unknown>;
}
const built: Built[] = [];

before(async () => {
  await loadRoofs();
  const nodes: NodeInput[] = [];
  const ways: WayInput[] = [];
  for (const [
    key,
    {
      rect: [x0, y0, x1, y1],
      tags,
    },
  ] of Object.entries(WAYS)) {
    const id = Number(key);
    const refs = (
      [
        [x0, y0],
        [x1, y0],
        [x1, y1],
        [x0, y1],
      ] as const
    ).map(([x, y], k) => {
      const [lon, lat] = frame.toLonLat(x, y);
      nodes.push({ id: id * 10 + k, lon, lat });
      return id * 10 + k;
    });
    ways.push({ id, tags, refs: [...refs, refs[0]] });
  }
  const dir = mkdtempSync(join(tmpdir(), 'cc-placement-'));
  writeFileSync(join(dir, 'x.osm.pbf'), writeOsmPbf({ nodes, ways, relations: [] }));
  await importOsm(join(dir, 'x.osm.pbf'), join(dir, 'osm.sqlite'));
  const corners = [
    [-10, -10],
    [100, -10],
    [100, 150],
    [-10, 150],
    [-10, -10],
  ].map(([x, y]) => {
    const [lon, lat] = frame.toLonLat(x, y);
    return [lat, lon];
  });
  const req = parseContextRequest({ polygon: corners, origin: ORIGIN, settings: { geometry: ['buildings'], crs: 'local', upAxis: 'Z', indexedMeshes: true } });
  for (const task of planTasks(req, { tileSize: 50, storePath: join(dir, 'osm.sqlite'), dem: null }).tasks) {
    const json = Buffer.from((await buildTile(task)).groups.buildings.json).toString('utf8');
    if (json) built.push(...(JSON.parse(`[${json}]`) as Built[]));
  }
});

const byId = (id: string) => built.filter((b) => b.descriptor.id === id);
const zRange = (b: Built) => {
  const zs = b.vertices.filter((_, k) => k % 3 === 2);
  return [Math.min(...zs), Math.max(...zs)];
};

test('underground buildings and parts are left out; a plain negative layer is still a building', () => {
  assert.deepEqual(byId('way/1'), []);
  assert.deepEqual(byId('way/2'), []);
  assert.deepEqual(byId('way/7'), []);
  assert.equal(byId('way/3').length, 1);
  // The underground part does not cut a hole in what stands above it: the outline is covered by its two parts.
  assert.deepEqual(byId('way/4'), []);
});

test('a building standing on an underground one is built; the underground one and its own parts are not', () => {
  assert.deepEqual(byId('way/10'), []);
  assert.deepEqual(byId('way/12'), []);
  const tower = byId('way/11');
  assert.equal(tower.length, 1, 'once, though it crosses a tile edge');
  assert.deepEqual(zRange(tower[0]), [0, 100]);
});

test('a bridge part keeps its deck above ground, from the smallest of several min_height values', () => {
  const [deck] = byId('way/6');
  assert.ok(deck, 'the bridge part is built');
  assert.deepEqual(zRange(deck), [5, 8]);
  assert.equal(deck.descriptor.buildingMinHeight, 5);
  assert.ok(
    (deck.descriptor.dataNotes as string[]).some((n) => n.startsWith('min_height=5;5.5')),
    JSON.stringify(deck.descriptor.dataNotes),
  );
  const report = inspectMesh({ positions: Float64Array.from(deck.vertices), indices: Uint32Array.from(deck.indices) });
  assert.ok(report.closed && report.volume > 0 && report.degenerate === 0, JSON.stringify(report));
});

test("a part starting above its outline's top keeps a volume of its own instead of the outline's height", () => {
  const [part] = byId('way/9');
  assert.ok(part, 'the part is built');
  const [bottom, top] = zRange(part);
  assert.equal(bottom, 6);
  assert.ok(top > 6, `top ${top}`);
  const report = inspectMesh({ positions: Float64Array.from(part.vertices), indices: Uint32Array.from(part.indices) });
  assert.ok(report.closed && report.volume > 0, JSON.stringify(report));
});
