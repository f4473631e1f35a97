/**
 * The ground cache's grid (features/surfaces/ground-cells.ts): the cells found for a box cover it,
 * and two neighbouring cells, each in its own frame, cut along the same lon/lat points, so their
 * pieces meet exactly once moved into a request's frame.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { cellBox, cellFrame, cellOutlineLonLat, cellsMeeting, cellSquare, GROUND_CELL_DEGREES } from '../../../../src/features/surfaces/ground-cells.ts';
import { createLocalFrame } from '../../../../src/frame/local-frame.ts';
import { insidePolygon } from '../../../../src/geometry/crop/crop-polygon.ts';
import type { OsmSource } from '../../../../src/sources/osm/types.ts';

const box = fc
  .record({
    lon: fc.double({ min: -179, max: 178, noNaN: true }),
    lat: fc.double({ min: -80, max: 79, noNaN: true }),
    w: fc.double({ min: 0, max: 0.05, noNaN: true }),
    h: fc.double({ min: 0, max: 0.05, noNaN: true }),
  })
  .map(({ lon, lat, w, h }) => ({ minLon: lon, minLat: lat, maxLon: lon + w, maxLat: lat + h }));

test('the cells meeting a box hold every point of it, and no cell lies wholly outside it', () => {
  fc.assert(
    fc.property(box, fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true }), (b, u, v) => {
      const cells = cellsMeeting(b);
      const lon = b.minLon + u * (b.maxLon - b.minLon),
        lat = b.minLat + v * (b.maxLat - b.minLat);
      const holding = cells.filter((c) => {
        const cb = cellBox(c);
        return lon >= cb.minLon && lon < cb.maxLon && lat >= cb.minLat && lat < cb.maxLat;
      });
      assert.equal(holding.length, 1, `(${lon}, ${lat}) in ${holding.length} cells`);
      for (const c of cells) {
        const cb = cellBox(c);
        assert.ok(cb.maxLon >= b.minLon && cb.minLon <= b.maxLon && cb.maxLat >= b.minLat && cb.minLat <= b.maxLat);
      }
    }),
  );
});

test('neighbouring cells share their side point for point, and it maps to the same place in any request frame', () => {
  fc.assert(
    fc.property(fc.integer({ min: -30000, max: 30000 }), fc.integer({ min: -15000, max: 15000 }), (i, j) => {
      const here = cellOutlineLonLat({ i, j });
      const east = cellOutlineLonLat({ i: i + 1, j });
      const n = here.length / 2 / 4; // points per side
      // this cell's east side (south → north) is the east neighbour's west side (north → south)
      const mySide = here.slice(2 * n, 4 * n + 2);
      const theirSide = [...east.slice(6 * n), east[0], east[1]];
      const reversed: number[] = [];
      for (let k = theirSide.length - 2; k >= 0; k -= 2) reversed.push(theirSide[k], theirSide[k + 1]);
      assert.deepEqual(mySide, reversed);
      // the request frame takes the shared points through each cell's own frame to within a nanometre
      const request = createLocalFrame((j + 0.3) * GROUND_CELL_DEGREES, (i + 1.2) * GROUND_CELL_DEGREES);
      const a = cellFrame({ i, j }),
        b = cellFrame({ i: i + 1, j });
      for (let k = 0; k < mySide.length; k += 2) {
        const [x1, y1] = a.toLocal(mySide[k], mySide[k + 1]);
        const [x2, y2] = b.toLocal(mySide[k], mySide[k + 1]);
        const p = request.toLocal(...a.toLonLat(x1, y1));
        const q = request.toLocal(...b.toLonLat(x2, y2));
        assert.ok(Math.hypot(p[0] - q[0], p[1] - q[1]) < 1e-6, `${Math.hypot(p[0] - q[0], p[1] - q[1])} m apart`);
      }
    }),
    { numRuns: 50 },
  );
});

test("a cell's square holds its outline, which follows the cell's meridians and parallels", () => {
  const source = {} as OsmSource;
  const cell = { i: 1484, j: 8747 }; // Monaco
  const square = cellSquare(source, cell);
  const b = cellBox(cell);
  const frame = cellFrame(cell);
  // points just inside the lon/lat cell are inside its outline; just outside are not
  for (const [u, v, inside] of [
    [0.001, 0.5, true],
    [0.999, 0.5, true],
    [0.5, 0.001, true],
    [0.5, 0.999, true],
    [-0.001, 0.5, false],
    [1.001, 0.5, false],
    [0.5, -0.001, false],
    [0.5, 1.001, false],
  ] as const) {
    const [x, y] = frame.toLocal(b.minLon + u * GROUND_CELL_DEGREES, b.minLat + v * GROUND_CELL_DEGREES);
    assert.equal(insidePolygon(square.outline, x, y), inside, `(${u}, ${v})`);
    if (inside) assert.ok(x >= square.bbox.minX && x <= square.bbox.maxX && y >= square.bbox.minY && y <= square.bbox.maxY);
  }
  // the store is read around the whole square
  const read = square.lonLatBBox(0);
  assert.ok(read.minLon <= b.minLon && read.maxLon >= b.maxLon && read.minLat <= b.minLat && read.maxLat >= b.maxLat);
});
