/**
 * The stored form of a ground cell (features/surfaces/ground-cell-codec.ts): pieces built in a
 * cell's frame come back in another frame at the same places (through lon/lat), with their kind,
 * descriptor, deck and ring structure; a damaged blob is refused.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { cellPiecesIn, decodeGroundCell, encodeGroundCell } from '../../../../src/features/surfaces/ground-cell-codec.ts';
import { createLocalFrame } from '../../../../src/frame/local-frame.ts';
import type { SurfaceArea } from '../../../../src/geometry/surfaces/types.ts';

const coord = fc.double({ min: -300, max: 300, noNaN: true });
const ring = fc.array(fc.tuple(coord, coord), { minLength: 3, maxLength: 8 }).map((pts) => pts.flat());
const piece: fc.Arbitrary<SurfaceArea> = fc.record({
  kind: fc.constantFrom('asphalt', 'pavement', 'grass', 'water'),
  priority: fc.integer({ min: 0, max: 100 }),
  footprints: fc.array(fc.record({ outer: ring, holes: fc.array(ring, { maxLength: 2 }) }), { minLength: 1, maxLength: 3 }),
  descriptor: fc.record({ type: fc.string(), id: fc.string(), layer: fc.integer() }),
  deck: fc.option(
    fc.record({
      start: fc.record({ x: coord, y: coord, z: coord }),
      end: fc.record({ x: coord, y: coord, z: coord }),
      axes: fc.array(
        fc.tuple(coord, coord, coord).map((p) => p),
        { maxLength: 2 },
      ),
    }),
    { nil: undefined },
  ),
  size: fc.option(fc.double({ min: 0, max: 1e6, noNaN: true }), { nil: undefined }),
  disjointSet: fc.option(fc.constant('roads'), { nil: undefined }),
}) as fc.Arbitrary<SurfaceArea>;

const cellFrame = createLocalFrame(43.7325, 7.4225);
const requestFrame = createLocalFrame(43.74, 7.41);
const everywhere = { minLon: -180, minLat: -90, maxLon: 180, maxLat: 90 };

test('pieces come back in another frame at the places they were (to 1e-6 m), with everything else as it was', () => {
  fc.assert(
    fc.property(fc.array(piece, { maxLength: 6 }), fc.boolean(), (pieces, sea) => {
      const cell = decodeGroundCell(encodeGroundCell(pieces, cellFrame, sea));
      assert.equal(cell.seaUndecided, sea);
      const back = cellPiecesIn(cell, requestFrame, everywhere);
      assert.equal(back.length, pieces.length);
      const place = (x: number, y: number) => requestFrame.toLocal(...cellFrame.toLonLat(x, y));
      back.forEach((b, n) => {
        const p = pieces[n];
        assert.equal(b.kind, p.kind);
        assert.equal(b.priority, p.priority);
        assert.deepEqual(b.descriptor, { ...p.descriptor });
        assert.equal(b.size, p.size);
        assert.equal(b.disjointSet, p.disjointSet);
        assert.equal(b.footprints.length, p.footprints.length);
        p.footprints.forEach((f, k) => {
          const rings = [f.outer, ...f.holes],
            got = [b.footprints[k].outer, ...b.footprints[k].holes];
          assert.equal(got.length, rings.length);
          rings.forEach((r, m) => {
            assert.equal(got[m].length, r.length);
            for (let v = 0; v < r.length; v += 2) {
              const [x, y] = place(r[v], r[v + 1]);
              assert.ok(Math.hypot(got[m][v] - x, got[m][v + 1] - y) < 1e-6);
            }
          });
        });
        assert.equal(b.deck === undefined, p.deck === undefined);
        if (p.deck && b.deck) {
          const [x, y] = place(p.deck.start.x, p.deck.start.y);
          assert.ok(Math.hypot(b.deck.start.x - x, b.deck.start.y - y) < 1e-6 && b.deck.start.z === p.deck.start.z);
          assert.equal(b.deck.axes?.length, p.deck.axes?.length);
        }
      });
    }),
    { numRuns: 60 },
  );
});

test('only the pieces whose box meets the asked box are moved', () => {
  const near: SurfaceArea = { kind: 'grass', priority: 1, footprints: [{ outer: [0, 0, 10, 0, 10, 10], holes: [] }], descriptor: { id: 'near' } };
  const far: SurfaceArea = { kind: 'grass', priority: 1, footprints: [{ outer: [200, 200, 210, 200, 210, 210], holes: [] }], descriptor: { id: 'far' } };
  const cell = decodeGroundCell(encodeGroundCell([near, far], cellFrame, false));
  const [lon, lat] = cellFrame.toLonLat(5, 5);
  const got = cellPiecesIn(cell, requestFrame, { minLon: lon - 1e-5, minLat: lat - 1e-5, maxLon: lon + 1e-5, maxLat: lat + 1e-5 });
  assert.deepEqual(
    got.map((p) => p.descriptor.id),
    ['near'],
  );
});

test('a damaged blob is refused, not read as wrong ground', () => {
  const piece: SurfaceArea = { kind: 'grass', priority: 1, footprints: [{ outer: [0, 0, 10, 0, 10, 10], holes: [] }], descriptor: {} };
  const bytes = encodeGroundCell([piece], cellFrame, false);
  assert.throws(() => decodeGroundCell(bytes.subarray(0, bytes.length - 8)), /damaged/);
});
