/**
 * A building does not depend on the request that asked for it: the same building in two different
 * polygons (other origin, other tiling) comes back with the same triangles, and its vertices are at
 * the same places on the Earth within a millimetre. Also: every building is built by exactly one
 * tile, and a tile reads only the groups it builds (plus the few whose interior point lies outside
 * the polygon).
 */
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { REPO_ROOT } from '../../../../src/config.ts';
import { importOsm } from '../../../../src/sources/osm/import.ts';
import { OsmStore } from '../../../../src/sources/osm/store.ts';
import { createLocalFrame } from '../../../../src/frame/local-frame.ts';
import { parseContextRequest } from '../../../../src/contract/parse-request.ts';
import { planTasks } from '../../../../src/features/index.ts';
import { buildTile } from '../../../../src/tile/build-tile.ts';
import { registerOsmSource } from '../../../../src/tile/osm-sources.ts';
import { loadRoofs } from '../../../../src/geometry/buildings/roofs/index.ts';
import type { OsmSource } from '../../../../src/sources/osm/types.ts';

let storePath = '';
let store: OsmStore;

before(async () => {
  await loadRoofs();
  const dir = mkdtempSync(join(tmpdir(), 'cc-stable-'));
  storePath = join(dir, 'osm.sqlite');
  await importOsm(join(REPO_ROOT, 'data/monaco/monaco.osm.pbf'), storePath);
  store = OsmStore.open(storePath);
});

interface Built {
  id: string;
  indices: number[];
  lonLat: number[];
  z: number[];
}

/** The request's buildings by a key of id + position in the id's list (multipolygons give several meshes). */
async function request(centre: [number, number], side: number, origin: [number, number], tileSize: number, source: OsmSource = store) {
  const dLat = side / 2 / 111320,
    dLon = side / 2 / (111320 * Math.cos((centre[0] * Math.PI) / 180));
  const [lat, lon] = centre;
  const polygon = [
    [lat - dLat, lon - dLon],
    [lat - dLat, lon + dLon],
    [lat + dLat, lon + dLon],
    [lat + dLat, lon - dLon],
    [lat - dLat, lon - dLon],
  ];
  const req = parseContextRequest({ polygon, origin, settings: { geometry: ['buildings'], crs: 'local', upAxis: 'Z', indexedMeshes: true } });
  const path = `${storePath}#${Math.random()}`;
  registerOsmSource(path, source);
  const plan = planTasks(req, { tileSize, storePath: path, dem: null });
  const frame = createLocalFrame(origin[0], origin[1]);
  const byKey = new Map<string, Built>();
  const counts = new Map<string, number>();
  const builtBy = new Map<string, number>();
  const builtTwice: string[] = [];
  for (const task of plan.tasks) {
    const json = Buffer.from((await buildTile(task)).groups.buildings.json).toString('utf8');
    if (!json) continue;
    for (const m of JSON.parse(`[${json}]`) as { vertices: number[]; indices: number[]; descriptor: Record<string, unknown> }[]) {
      const id = `${String(m.descriptor.id)}${m.descriptor.outlineRemainder ? '/rest' : ''}`;
      if ((builtBy.get(id) ?? task.key) !== task.key) builtTwice.push(id);
      builtBy.set(id, task.key);
      const n = counts.get(id) ?? 0;
      counts.set(id, n + 1);
      const lonLat: number[] = [],
        z: number[] = [];
      for (let k = 0; k < m.vertices.length; k += 3) {
        lonLat.push(...frame.toLonLat(m.vertices[k], m.vertices[k + 1]));
        z.push(m.vertices[k + 2]);
      }
      byKey.set(`${id}#${n}`, { id, indices: m.indices, lonLat, z });
    }
  }
  return { byKey, builtTwice, tasks: plan.tasks.length };
}

test('the same building in two requests (other polygon, origin and tiling) has the same triangles and vertices within 1 mm', async () => {
  let compared = 0;
  await fc.assert(
    fc.asyncProperty(
      fc.record({
        dx: fc.integer({ min: -150, max: 150 }),
        dy: fc.integer({ min: -150, max: 150 }),
        ox: fc.integer({ min: -3000, max: 3000 }),
        oy: fc.integer({ min: -3000, max: 3000 }),
        tileA: fc.constantFrom(100, 170, 500),
        tileB: fc.constantFrom(120, 250, 500),
      }),
      async ({ dx, dy, ox, oy, tileA, tileB }) => {
        const centre: [number, number] = [43.7335, 7.4185];
        const moved: [number, number] = [centre[0] + dy / 111320, centre[1] + dx / 80500];
        const a = await request(centre, 400, centre, tileA);
        const b = await request(moved, 400, [centre[0] + oy / 111320, centre[1] + ox / 80500], tileB);
        for (const [key, built] of a.byKey) {
          const other = b.byKey.get(key);
          if (!other) continue;
          compared++;
          assert.ok(built.indices.length > 0, `${key}: no triangles`);
          assert.deepEqual(other.indices, built.indices, `${key}: triangles differ`);
          for (let k = 0; k < built.lonLat.length; k += 2) {
            const dEast = (other.lonLat[k] - built.lonLat[k]) * 80500,
              dNorth = (other.lonLat[k + 1] - built.lonLat[k + 1]) * 111320;
            assert.ok(Math.hypot(dEast, dNorth) < 0.0015, `${key}: vertex ${k / 2} moved ${Math.hypot(dEast, dNorth)} m`);
          }
          assert.deepEqual(other.z, built.z, `${key}: heights differ`);
        }
      },
    ),
    { numRuns: 6, seed: 7 },
  );
  assert.ok(compared > 300, `${compared} shared buildings compared`);
});

test('a tile reads only the building groups it builds (or cannot place without their geometry); each is built once', async () => {
  const reads = new Map<number, number>();
  const counting: OsmSource = {
    query: (b, l) => store.query(b, l),
    buildingGroups: (b) => store.buildingGroups(b),
    buildingGroupMembers: (gids) => {
      for (const g of gids) reads.set(g, (reads.get(g) ?? 0) + 1);
      return store.buildingGroupMembers(gids);
    },
    close: () => {},
  };
  const { builtTwice, tasks } = await request([43.7335, 7.4185], 900, [43.7335, 7.4185], 150, counting);
  assert.ok(tasks >= 36, `${tasks} tiles`);
  assert.deepEqual(builtTwice, [], 'built by two tiles');
  // Read twice or more: only boundary groups whose interior point lies outside the polygon.
  const total = [...reads.values()].reduce((a, b) => a + b, 0);
  assert.ok(reads.size > 400, `${reads.size} groups read`);
  // (With 150 m tiles about a third of the groups overlap two tiles or more: reading by overlap would fail this.)
  assert.ok(total - reads.size <= 0.1 * reads.size, `${total} reads of ${reads.size} groups`);
});
