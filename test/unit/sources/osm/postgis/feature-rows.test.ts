/**
 * A row of the osm2pgsql tables becomes the feature the SQLite import makes of the same object:
 * rings started and wound as way-geometry.ts does, multipolygons assembled by multipolygon.ts from
 * their member ways, the relation dropped when a member way is missing. WKB is written here as
 * PostGIS returns it (little-endian, 2D), from coordinates on OSM's 1e-7 degree grid.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { featureFromRow, type FeatureRow } from '../../../../../src/sources/osm/postgis/feature-rows.ts';
import { assembleMultipolygon } from '../../../../../src/sources/osm/multipolygon.ts';
import { wayGeometry } from '../../../../../src/sources/osm/way-geometry.ts';

function wkb(type: number, body: number[][]): Buffer {
  const parts = [Buffer.from([1]), Buffer.alloc(4)];
  parts[1].writeUInt32LE(type);
  for (const chunk of body) {
    const b = Buffer.alloc(chunk.length * 8);
    chunk.forEach((v, i) => b.writeDoubleLE(v, 8 * i));
    parts.push(b);
  }
  return Buffer.concat(parts);
}

function uint32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n);
  return b;
}

/** A WKB line string as osm2pgsql writes a way: consecutive repeated locations dropped. */
function lineWkb(coords: readonly number[]): Buffer {
  const out: number[] = [];
  for (let i = 0; i < coords.length; i += 2) {
    if (out.length >= 2 && out[out.length - 2] === coords[i] && out[out.length - 1] === coords[i + 1]) continue;
    out.push(coords[i], coords[i + 1]);
  }
  return Buffer.concat([Buffer.from([1]), uint32(2), uint32(out.length / 2), wkb(0, [out]).subarray(5)]);
}

function collectionWkb(lines: readonly (readonly number[])[]): Buffer {
  return Buffer.concat([Buffer.from([1]), uint32(7), uint32(lines.length), ...lines.map(lineWkb)]);
}

const row = (over: Partial<FeatureRow>): FeatureRow => ({
  layer: 'building',
  osm_type: 'W',
  osm_id: '7',
  kind: 'area',
  tags: { building: 'yes' },
  way_members: null,
  wkb: Buffer.alloc(0),
  ...over,
});

/** Coordinates on the 1e-7 degree grid around Monaco. */
const gridPoint = fc
  .tuple(fc.integer({ min: 74_100_000, max: 74_100_400 }), fc.integer({ min: 437_300_000, max: 437_300_400 }))
  .map(([x, y]) => [x / 1e7, y / 1e7]);

test('a closed area way gives the ring the SQLite import makes: same start, same winding, repeats dropped', () => {
  fc.assert(
    fc.property(fc.array(gridPoint, { minLength: 3, maxLength: 12 }), fc.array(fc.nat({ max: 11 }), { maxLength: 3 }), (points, repeats) => {
      const nodes = points.flatMap((p, i) => (repeats.includes(i) ? [...p, ...p] : p));
      const coords = [...nodes, nodes[0], nodes[1]];
      const expected = wayGeometry(coords, true, { building: 'yes' });
      const got = featureFromRow(row({ wkb: lineWkb(coords) }));
      if (!expected) assert.equal(got, null);
      else assert.deepEqual(got?.feature.polygons, expected.kind === 'area' ? expected.polygons : undefined);
    }),
  );
});

test('a multipolygon is assembled from its member ways as the SQLite import assembles it; a missing member drops it', () => {
  // a square with a square hole, the outer drawn as two ways
  const outerA = [7.41, 43.73, 7.411, 43.73, 7.411, 43.731];
  const outerB = [7.411, 43.731, 7.41, 43.731, 7.41, 43.73];
  const hole = [7.4103, 43.7303, 7.4103, 43.7306, 7.4106, 43.7306, 7.4106, 43.7303, 7.4103, 43.7303];
  const members = [outerA, outerB, hole];
  const expected = assembleMultipolygon(members.map((coords) => ({ role: '', coords })));
  assert.ok(expected.ok);
  const relation = (lines: number[][], wayMembers: number) =>
    featureFromRow(
      row({
        osm_type: 'R',
        osm_id: '9',
        way_members: wayMembers,
        tags: { type: 'multipolygon', landuse: 'grass' },
        layer: 'landcover',
        wkb: collectionWkb(lines),
      }),
    );
  const got = relation(members, 3);
  assert.equal(got?.feature.id, 'relation/9');
  assert.deepEqual(got?.feature.polygons, expected.polygons);
  assert.equal(relation([outerA, hole], 3), null, 'a member way outside the extract');
  assert.deepEqual(got?.bbox7, [74_100_000, 437_300_000, 74_110_000, 437_310_000]);
});

test('points and lines keep their coordinates on the grid; ids and import order follow the object type', () => {
  const point = featureFromRow(
    row({ osm_type: 'N', osm_id: '5', kind: 'point', layer: 'poi', tags: { amenity: 'bench' }, wkb: wkb(1, [[7.4123456, 43.7312345]]) }),
  );
  assert.deepEqual(point?.feature, { id: 'node/5', layer: 'poi', kind: 'point', tags: { amenity: 'bench' }, point: [7.4123456, 43.7312345] });
  const line = featureFromRow(
    row({ kind: 'line', layer: 'highway', tags: { highway: 'service' }, wkb: lineWkb([7.41, 43.73, 7.41, 43.73, 7.4100001, 43.73]) }),
  );
  assert.deepEqual(line?.feature.line, [7.41, 43.73, 7.4100001, 43.73]);
  assert.ok(point!.order < line!.order, 'nodes before ways');
  assert.equal(featureFromRow(row({ kind: 'line', wkb: lineWkb([7.41, 43.73, 7.41, 43.73]) })), null, 'one distinct point is no line');
});
