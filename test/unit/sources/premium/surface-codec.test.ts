/** The premium geometry blobs give back every point to 1e-9 degrees and 0.1 mm, with classes, parts and ring sizes. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { decodeFootprint, decodeSurfaces, encodeFootprint, encodeSurfaces } from '../../../../src/sources/premium/surface-codec.ts';

const lon = fc.double({ min: -179, max: 179, noNaN: true });
const lat = fc.double({ min: -85, max: 85, noNaN: true });
const offset = fc.double({ min: -0.01, max: 0.01, noNaN: true });
const ringOf = (dims: 2 | 3) =>
  fc.array(fc.tuple(offset, offset, fc.double({ min: -500, max: 9000, noNaN: true })), { minLength: 3, maxLength: 12 }).map((pts) => ({ pts, dims }));

test('surfaces round-trip within 1e-9 degrees and 0.1 mm', () => {
  fc.assert(
    fc.property(
      lon,
      lat,
      fc.array(fc.tuple(fc.integer({ min: 0, max: 8 }), fc.integer({ min: 0, max: 500 }), fc.array(ringOf(3), { minLength: 1, maxLength: 3 })), {
        maxLength: 6,
      }),
      (lon0, lat0, raw) => {
        const surfaces = raw.map(([cls, part, rings]) => ({ cls, part, rings: rings.map((r) => r.pts.flatMap(([a, b, z]) => [lon0 + a, lat0 + b, z])) }));
        const back = decodeSurfaces(encodeSurfaces([lon0, lat0], surfaces));
        assert.equal(back.length, surfaces.length);
        back.forEach((s, i) => {
          assert.deepEqual([s.cls, s.part, s.rings.map((r) => r.length)], [surfaces[i].cls, surfaces[i].part, surfaces[i].rings.map((r) => r.length)]);
          s.rings.forEach((ring, k) =>
            ring.forEach((v, j) =>
              assert.ok(Math.abs(v - surfaces[i].rings[k][j]) <= (j % 3 === 2 ? 0.5e-4 : 0.5e-9 + 1e-12), `value ${j}: ${v} vs ${surfaces[i].rings[k][j]}`),
            ),
          );
        });
      },
    ),
  );
});

test('footprints round-trip; a building wider than ~2 degrees is refused, not wrapped', () => {
  fc.assert(
    fc.property(lon, lat, fc.array(fc.array(ringOf(2), { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 3 }), (lon0, lat0, raw) => {
      const polygons = raw.map((rings) => rings.map((r) => r.pts.flatMap(([a, b]) => [lon0 + a, lat0 + b])));
      const back = decodeFootprint(encodeFootprint([lon0, lat0], polygons));
      assert.deepEqual(
        back.map((p) => p.map((r) => r.length)),
        polygons.map((p) => p.map((r) => r.length)),
      );
      back.forEach((p, i) => p.forEach((r, k) => r.forEach((v, j) => assert.ok(Math.abs(v - polygons[i][k][j]) <= 0.5e-9 + 1e-12))));
    }),
  );
  assert.throws(() => encodeFootprint([0, 0], [[[0, 0, 3, 0, 3, 1]]]), /out of range/);
});
