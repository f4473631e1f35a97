import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { decodeGeometry, encodeGeometry, type Geometry } from '../../../../src/sources/osm/geometry-codec.ts';

const lon = fc.double({ min: -180, max: 180, noNaN: true });
const lat = fc.double({ min: -90, max: 90, noNaN: true });
const point = fc.tuple(lon, lat);
const flat = (min: number, max: number) => fc.array(point, { minLength: min, maxLength: max }).map((pts) => pts.flat());

const geometryArb: fc.Arbitrary<Geometry> = fc.oneof(
  point.map((p): Geometry => ({ kind: 'point', point: p })),
  flat(2, 30).map((line): Geometry => ({ kind: 'line', line })),
  fc.array(fc.array(flat(3, 12), { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 4 }).map((polygons): Geometry => ({ kind: 'area', polygons })),
);

function coordsOf(g: Geometry): number[] {
  return g.kind === 'point' ? g.point : g.kind === 'line' ? g.line : g.polygons.flat(2);
}

function shapeOf(g: Geometry): unknown {
  return g.kind === 'area' ? g.polygons.map((p) => p.map((r) => r.length)) : coordsOf(g).length;
}

test('geometry codec: round trip keeps the structure and every coordinate within 1e-7 degrees', () => {
  fc.assert(
    fc.property(geometryArb, fc.nat(3), (geometry, misalign) => {
      const { bytes, bbox7 } = encodeGeometry(geometry);
      // SQLite returns blobs at arbitrary offsets: decode from a misaligned copy too.
      const shifted = new Uint8Array(bytes.length + misalign);
      shifted.set(bytes, misalign);
      const decoded = decodeGeometry(shifted.subarray(misalign));
      assert.equal(decoded.kind, geometry.kind);
      assert.deepEqual(shapeOf(decoded), shapeOf(geometry));
      const a = coordsOf(geometry),
        b = coordsOf(decoded);
      for (let i = 0; i < a.length; i++) assert.ok(Math.abs(a[i] - b[i]) <= 1e-7, `coordinate ${i}: ${a[i]} vs ${b[i]}`);
      // The bbox is exactly the bbox of the decoded coordinates, in 1e-7 degree units.
      const lons = b.filter((_, i) => i % 2 === 0).map((v) => Math.round(v * 1e7));
      const lats = b.filter((_, i) => i % 2 === 1).map((v) => Math.round(v * 1e7));
      assert.deepEqual(bbox7, [Math.min(...lons), Math.min(...lats), Math.max(...lons), Math.max(...lats)]);
      // Decoding an encoded decode is lossless (the stored grid is a fixed point).
      assert.deepEqual(decodeGeometry(encodeGeometry(decoded).bytes), decoded);
    }),
    { numRuns: 300 },
  );
});

test('geometry codec: rejects empty geometry and corrupt blobs', () => {
  assert.throws(() => encodeGeometry({ kind: 'line', line: [] }));
  assert.throws(() => encodeGeometry({ kind: 'point', point: [Number.NaN, 0] }));
  const { bytes } = encodeGeometry({ kind: 'line', line: [7.4, 43.7, 7.5, 43.8] });
  assert.throws(() => decodeGeometry(bytes.subarray(0, bytes.length - 4)), /corrupt/);
  assert.throws(() => decodeGeometry(new Uint8Array([9, 0, 0, 0])), /corrupt/);
});
