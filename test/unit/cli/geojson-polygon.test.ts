/** GeoJSON as QGIS and other tools write it, read as the API's [lat, lon] ring. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { UsageError } from '../../../src/cli/command.ts';
import { polygonFromGeoJson } from '../../../src/cli/geojson-polygon.ts';
import { parseContextRequest } from '../../../src/contract/parse-request.ts';
import { smallRing } from '../../support/arbitraries/contract.ts';

/** A [lat, lon] ring as GeoJSON positions: [lon, lat], with an altitude on every other one. */
const positions = (ring: [number, number][]) => ring.map(([lat, lon], i) => (i % 2 ? [lon, lat, 12.5] : [lon, lat]));

const RING: [number, number][] = [
  [43.733, 7.4175],
  [43.733, 7.4195],
  [43.7345, 7.4195],
  [43.7345, 7.4175],
  [43.733, 7.4175],
];
const polygon = { type: 'Polygon', coordinates: [positions(RING)] };

test('a bare Polygon, a Feature, a one-part MultiPolygon and a FeatureCollection give the same [lat, lon] ring', () => {
  const docs = [
    polygon,
    { type: 'Feature', properties: { name: 'site' }, geometry: polygon },
    { type: 'MultiPolygon', coordinates: [polygon.coordinates] },
    { type: 'FeatureCollection', features: [{ type: 'Feature', properties: {}, geometry: polygon }] },
    { type: 'GeometryCollection', geometries: [polygon] },
  ];
  for (const doc of docs) assert.deepEqual(polygonFromGeoJson(doc), { ring: RING, notes: [] }, doc.type);
});

test('any valid ring survives the trip through GeoJSON (lon/lat swapped back, altitude dropped) and the API accepts it', () => {
  fc.assert(
    fc.property(smallRing, (ring) => {
      const { ring: read } = polygonFromGeoJson({ type: 'Feature', geometry: { type: 'Polygon', coordinates: [positions(ring)] } });
      assert.deepEqual(read, ring);
      assert.deepEqual(parseContextRequest({ polygon: read }).polygon, ring);
    }),
  );
});

test('holes and the members that are not polygons are left out, and said so', () => {
  const hole = positions([
    [43.7335, 7.418],
    [43.7335, 7.419],
    [43.734, 7.419],
    [43.7335, 7.418],
  ]);
  const doc = {
    type: 'FeatureCollection',
    features: [
      { type: 'Feature', geometry: { type: 'Point', coordinates: [7.418, 43.7335] } },
      { type: 'Feature', geometry: { type: 'Polygon', coordinates: [positions(RING), hole] } },
    ],
  };
  const { ring, notes } = polygonFromGeoJson(doc);
  assert.deepEqual(ring, RING);
  assert.equal(notes.length, 2);
  assert.match(notes.join('\n'), /1 hole/);
  assert.match(notes.join('\n'), /1 member/);
});

test('not exactly one polygon, a projected CRS or a broken position is a usage error with the reason', () => {
  const cases: [unknown, RegExp][] = [
    [
      {
        type: 'FeatureCollection',
        features: [
          { type: 'Feature', geometry: polygon },
          { type: 'Feature', geometry: polygon },
        ],
      },
      /2 polygons/,
    ],
    [{ type: 'MultiPolygon', coordinates: [polygon.coordinates, polygon.coordinates] }, /2 polygons/],
    [{ type: 'Feature', geometry: { type: 'LineString', coordinates: [] } }, /no Polygon/],
    [{ type: 'Feature', geometry: null }, /no Polygon/],
    [{ coordinates: [] }, /no GeoJSON "type"/],
    [[1, 2], /not an object/],
    [{ ...polygon, crs: { type: 'name', properties: { name: 'urn:ogc:def:crs:EPSG::2154' } } }, /EPSG::2154.*WGS 84/],
    [
      {
        type: 'Polygon',
        coordinates: [
          [
            [7.4, 43.7],
            ['7.5', 43.7],
            [7.4, 43.7],
          ],
        ],
      },
      /position 1/,
    ],
  ];
  for (const [doc, message] of cases)
    assert.throws(
      () => polygonFromGeoJson(doc),
      (e: unknown) => e instanceof UsageError && message.test(e.message),
    );
  // WGS 84 said out loud is fine
  const named = { ...polygon, crs: { type: 'name', properties: { name: 'urn:ogc:def:crs:OGC:1.3:CRS84' } } };
  assert.deepEqual(polygonFromGeoJson(named).ring, RING);
});
