/**
 * Issue 13.5 (sliver polygons: extent cap, tiles found without walking the box) and 13.8 (an
 * origin far from the polygon).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { rectTouchesPolygon, tileBBox, tileGridFor, tilesTouchingPolygon, type TileGrid } from '../../src/plan/tiling.ts';
import type { Ring } from '../../src/geometry/types.ts';
import { startFakeApp, smallBody, type FakeApp } from '../support/service/fake-app.ts';
import { postContext } from '../support/service/http.ts';

let app: FakeApp;
let key: string;
let accountId: number;
before(async () => {
  app = await startFakeApp();
  ({ key, accountId } = await app.newKey(10));
});
after(async () => {
  await app.close();
});

test('a 4,000 km × 2.5 mm sliver is refused as polygon_too_long, uncharged', async () => {
  const sliver = [
    [0, 0],
    [0, 36],
    [0.0000000225, 36],
    [0, 0],
  ];
  const r = await postContext(app.url, key, { polygon: sliver, settings: { geometry: ['buildings'] } });
  assert.equal(r.status, 400);
  assert.equal(r.json.code, 'polygon_too_long');
  assert.ok(r.json.details[0].eastWestKm > 4000);
  assert.equal((await app.accounts.getAccount(accountId))!.balanceKm2, 10);
});

test('a corridor just under 20 km is accepted; one just over is refused', async () => {
  const corridor = (km: number) => {
    const dLon = km / (111.32 * Math.cos((43.7 * Math.PI) / 180));
    return [
      [43.7, 7.3],
      [43.7, 7.3 + dLon],
      [43.7001, 7.3 + dLon],
      [43.7001, 7.3],
      [43.7, 7.3],
    ];
  };
  assert.equal((await postContext(app.url, key, { polygon: corridor(19.5), settings: { geometry: ['buildings'] } })).status, 200);
  const over = await postContext(app.url, key, { polygon: corridor(20.5), settings: { geometry: ['buildings'] } });
  assert.equal(over.status, 400);
  assert.equal(over.json.code, 'polygon_too_long');
});

test('an origin at the South Pole for a Monaco polygon is refused as origin_too_far; a near one is fine', async () => {
  const far = await postContext(app.url, key, smallBody({ origin: [-90, 0] }));
  assert.equal(far.status, 400);
  assert.equal(far.json.code, 'origin_too_far');
  assert.deepEqual(far.json.details[0].path, ['origin']);
  assert.ok(far.json.details[0].distanceKm > 10_000);
  const near = await postContext(app.url, key, smallBody({ origin: [43.9, 7.419] })); // ~18 km north
  assert.equal(near.status, 200);
});

/** The old way, as the reference: every cell of the box tested. */
function bruteForce(grid: TileGrid, polygon: Ring): string[] {
  const out: string[] = [];
  for (let j = 0; j < grid.rows; j++) for (let i = 0; i < grid.columns; i++) if (rectTouchesPolygon(tileBBox(grid, i, j), polygon)) out.push(`${i},${j}`);
  return out;
}

test('property: the tiles found from the edges are exactly the tiles that touch the polygon', async () => {
  // Coordinates often on tile lines (multiples of 25 with tile size 100) to catch boundary cases.
  const coord = fc.oneof(
    fc.integer({ min: 0, max: 40 }).map((k) => k * 25),
    fc.double({ min: 0, max: 1000, noNaN: true }),
  );
  const ring = fc.array(fc.tuple(coord, coord), { minLength: 3, maxLength: 12 }).map((pts) => pts.flat());
  fc.assert(
    fc.property(ring, fc.constantFrom(50, 100, 333), (polygon, size) => {
      const grid = tileGridFor(polygon, size);
      const found = tilesTouchingPolygon(grid, polygon).map((t) => `${t.i},${t.j}`);
      assert.deepEqual(found, bruteForce(grid, polygon));
    }),
    { numRuns: 300, seed: 13 },
  );
});

test('a 10,000-vertex diagonal sliver across 20 km plans without walking 40,000 cells', async () => {
  const polygon: number[] = [];
  const n = 5000;
  for (let k = 0; k < n; k++) polygon.push(k * 4, k * 4);
  for (let k = n - 1; k >= 0; k--) polygon.push(k * 4 + 0.003, k * 4 - 0.003);
  const grid = tileGridFor(polygon, 100);
  assert.equal(grid.columns * grid.rows, 200 * 200);
  // the work, counted as reads of the polygon's coordinates: the old walk read all 20,000 of them
  // for each of the 40,000 cells
  let reads = 0;
  const counted = new Proxy(polygon, {
    get: (target, key, receiver) => {
      if (typeof key === 'string' && /^\d+$/.test(key)) reads++;
      return Reflect.get(target, key, receiver);
    },
  });
  const tiles = tilesTouchingPolygon(grid, counted);
  assert.ok(tiles.length <= 3 * 200, `${tiles.length} tiles`);
  assert.ok(reads < 100 * polygon.length, `${reads} coordinate reads`);
});
