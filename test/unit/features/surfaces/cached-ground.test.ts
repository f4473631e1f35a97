/**
 * The ground from the ground cache (features/surfaces/cached-ground.ts) against the ground built
 * per tile, on the bundled Monaco extract through the real import and tile path: the same kinds
 * of ground over the same area, no piece laid twice across the cells' seams, the
 * second request served from the kept cells alone, small requests left to build their own ground,
 * and the building defaults keeping their own cells.
 */
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Clipper, FillRule, type Paths64 } from 'clipper2-ts';
import { REPO_ROOT } from '../../../../src/config.ts';
import { importOsm } from '../../../../src/sources/osm/import.ts';
import { parseContextRequest } from '../../../../src/contract/parse-request.ts';
import { planTasks } from '../../../../src/features/index.ts';
import { buildTile } from '../../../../src/tile/build-tile.ts';
import { loadRoofs } from '../../../../src/geometry/buildings/roofs/index.ts';
import { GroundCacheStore } from '../../../../src/sources/ground-cache/store.ts';
import { findZFighting } from '../../../support/checks/z-fighting.ts';
import { square } from '../../../support/polygons.ts';

interface Item {
  vertices: number[];
  indices: number[];
  descriptor: Record<string, unknown>;
}

/** ~1.2 km² over the harbour, the old town's slope and the sea: a request that fills the cache. */
const LARGE = square(43.7355, 7.4225, 1100);
/** 0.06 km²: builds its own ground unless its cells are kept. */
const SMALL = square(43.7335, 7.419, 250);

let dir = '';
let store = '';

before(async () => {
  await loadRoofs();
  dir = mkdtempSync(join(tmpdir(), 'cc-cached-ground-'));
  store = join(dir, 'osm.sqlite');
  await importOsm(join(REPO_ROOT, 'data/monaco/monaco.osm.pbf'), store);
});

interface Ground {
  items: Item[];
  json: string;
  timings: Record<string, number>;
}

async function ground(polygon: [number, number][], cachePath: string | null, settings: Record<string, unknown> = {}): Promise<Ground> {
  const req = parseContextRequest({ polygon, settings: { geometry: ['surface'], crs: 'local', upAxis: 'Z', indexedMeshes: true, ...settings } });
  const sources = { canopy: null, ...(cachePath ? { groundCache: { path: cachePath, maxBytes: 1 << 28 } } : {}) };
  const items: Item[] = [];
  const timings: Record<string, number> = {};
  let json = '';
  for (const task of planTasks(req, { tileSize: 500, storePath: store, dem: null }, sources).tasks) {
    const result = await buildTile(structuredClone(task));
    for (const [k, v] of Object.entries(result.timings)) timings[k] = (timings[k] ?? 0) + v;
    const text = Buffer.from(result.groups.surface?.json ?? []).toString('utf8');
    json += `${task.key}:${text}\n`;
    if (text) items.push(...(JSON.parse(`[${text}]`) as Item[]));
  }
  return { items, json, timings };
}

function areaByKind(items: readonly Item[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const m of items) {
    let a = 0;
    for (let t = 0; t < m.indices.length; t += 3) {
      const [p, q, r] = [0, 1, 2].map((k) => 3 * m.indices[t + k]);
      const v = m.vertices;
      a += ((v[q] - v[p]) * (v[r + 1] - v[p + 1]) - (v[r] - v[p]) * (v[q + 1] - v[p + 1])) / 2;
    }
    const kind = String(m.descriptor.type);
    out.set(kind, (out.get(kind) ?? 0) + a);
  }
  return out;
}

/** A mesh's triangles in plan on the millimetre grid. */
function planPaths(item: Item): Paths64 {
  const tris: Paths64 = [];
  for (let t = 0; t < item.indices.length; t += 3) {
    tris.push(
      [0, 1, 2].map((k) => ({
        x: Math.round(item.vertices[3 * item.indices[t + k]] * 1000),
        y: Math.round(item.vertices[3 * item.indices[t + k] + 1] * 1000),
      })),
    );
  }
  return tris;
}

function soup(items: readonly Item[]): number[] {
  return items.flatMap((m) => m.indices.flatMap((i) => m.vertices.slice(3 * i, 3 * i + 3)));
}

function keptCells(path: string): number {
  const cache = GroundCacheStore.open(path, 1 << 28);
  try {
    return cache.count();
  } finally {
    cache.close();
  }
}

test('a large request: the cached ground covers what the ground built per tile covers, with its kinds and areas, and no piece is laid twice', async () => {
  const cachePath = join(dir, 'large.sqlite');
  const live = await ground(LARGE, null);
  const cached = await ground(LARGE, cachePath);
  assert.ok(keptCells(cachePath) >= 6, `${keptCells(cachePath)} cells kept`);
  assert.ok(cached.timings.surfaceCellBuild > 0, 'the cells were built');
  const a = areaByKind(live.items),
    b = areaByKind(cached.items);
  // the same site covered: pieces differ only in where seams cut them
  const covered = (items: readonly Item[]) => Math.abs(Clipper.areaPaths(Clipper.union(items.flatMap(planPaths), FillRule.NonZero))) / 1e6;
  const [x, y] = [covered(live.items), covered(cached.items)];
  assert.ok(Math.abs(x - y) < 1e-5 * x, `ground covers ${x.toFixed(1)} m² built per tile, ${y.toFixed(1)} m² from the cache`);
  assert.deepEqual([...b.keys()].sort(), [...a.keys()].sort());
  for (const [kind, area] of a) {
    // a tile or cell seam may move where a tie between two kinds falls: a few m² at most
    const diff = Math.abs((b.get(kind) ?? 0) - area);
    assert.ok(diff < Math.max(5, 0.005 * area), `${kind}: ${area.toFixed(1)} m² built per tile, ${(b.get(kind) ?? 0).toFixed(1)} m² from the cache`);
  }
  // the cells' pieces do not overlap across the cells' and tiles' seams: the pieces' areas add up
  // to the area they cover (a seam laid twice would add its pieces' area a second time)
  const sum = [...b.values()].reduce((s, v) => s + v, 0);
  assert.ok(sum - y < 1e-4 * y, `the pieces' areas add up to ${sum.toFixed(1)} m², they cover ${y.toFixed(1)} m²`);
  // no ground lying on other ground where the ground built per tile has none (it has a few spots of
  // its own here: where two bridge decks meet, 5.3 m up)
  const spots = (items: readonly Item[]) => findZFighting(soup(items)).spots.map((p) => p.at);
  const perTile = spots(live.items);
  const fresh = spots(cached.items).filter((p) => !perTile.some((q) => Math.hypot(p[0] - q[0], p[1] - q[1]) < 5));
  assert.deepEqual(
    fresh.map((p) => p.map((c) => +c.toFixed(1))),
    [],
    'z-fighting from the cache where the ground built per tile has none',
  );
});

test('the second request is served from the kept cells alone, with the same answer', async () => {
  const cachePath = join(dir, 'again.sqlite');
  const first = await ground(LARGE, cachePath);
  const kept = keptCells(cachePath);
  const second = await ground(LARGE, cachePath);
  assert.equal(second.timings.surfaceCellBuild, undefined, 'no cell was built again');
  assert.equal(keptCells(cachePath), kept);
  assert.equal(second.json, first.json);
  // a small request inside the area is served from the same cells
  const small = await ground(SMALL, cachePath);
  assert.ok(small.timings.surfaceCells > 0 && small.timings.surfaceAssemble === undefined, 'the small request took its ground from the cache');
});

test('a small request over cells not kept builds its own ground, exactly as without a cache, and keeps nothing', async () => {
  const cachePath = join(dir, 'small.sqlite');
  const live = await ground(SMALL, null);
  const cached = await ground(SMALL, cachePath);
  assert.equal(cached.json, live.json);
  assert.equal(keptCells(cachePath), 0);
});

test('other building defaults keep cells of their own', async () => {
  const cachePath = join(dir, 'defaults.sqlite');
  await ground(LARGE, cachePath);
  const kept = keptCells(cachePath);
  const taller = await ground(LARGE, cachePath, { defaultLevels: 3 });
  assert.ok(taller.timings.surfaceCellBuild > 0, 'new cells were built for the other defaults');
  assert.equal(keptCells(cachePath), 2 * kept);
});
