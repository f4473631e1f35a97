/** `--polygon` (a file, standard input or "lat,lon" pairs) and `--bbox` to the API's ring. */
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import fc from 'fast-check';
import { UsageError } from '../../../src/cli/command.ts';
import { polygonFromBbox, polygonFromPairs, polygonFromText, readPolygonArg } from '../../../src/cli/polygon-input.ts';
import { parseContextRequest } from '../../../src/contract/parse-request.ts';
import { ringAreaKm2 } from '../../../src/contract/polygon-measures.ts';
import { smallRing } from '../../support/arbitraries/contract.ts';

const usage = (message: RegExp) => (e: unknown) => e instanceof UsageError && message.test(e.message);

test('"lat,lon" pairs read latitude first, as the API; an open ring is closed', () => {
  const closed: [number, number][] = [
    [43.733, 7.4175],
    [43.733, 7.4195],
    [43.7345, 7.4195],
    [43.733, 7.4175],
  ];
  assert.deepEqual(polygonFromPairs('43.733,7.4175 43.733,7.4195 43.7345,7.4195'), closed);
  assert.deepEqual(polygonFromPairs('43.733,7.4175 43.733,7.4195 43.7345,7.4195 43.733,7.4175'), closed, 'already closed: kept');
  assert.deepEqual(polygonFromPairs(' 43.733, 7.4175; 43.733, 7.4195;\n43.7345 ,7.4195 '), closed, 'spaces after commas, semicolons, new lines');
  assert.deepEqual(
    polygonFromPairs('-3.5e1,+1.5 -35,2 -34,2'),
    [
      [-35, 1.5],
      [-35, 2],
      [-34, 2],
      [-35, 1.5],
    ],
    'signs and exponents',
  );
  for (const bad of ['43.733 7.4175', '43.733,7.4175,12', 'a,b c,d', '43.733,7.4175 43.733']) assert.throws(() => polygonFromPairs(bad), usage(/lat,lon/), bad);
});

test('any valid ring written as pairs, closed or not, reads back as itself', () => {
  fc.assert(
    fc.property(smallRing, fc.boolean(), (ring, open) => {
      const text = (open ? ring.slice(0, -1) : ring).map(([lat, lon]) => `${lat},${lon}`).join(' ');
      assert.deepEqual(polygonFromPairs(text), ring);
    }),
  );
});

test('--bbox minLon,minLat,maxLon,maxLat is the closed rectangle the API accepts, of the expected area', () => {
  const ring = polygonFromBbox('7.4175,43.733,7.4195,43.7345');
  assert.deepEqual(ring, [
    [43.733, 7.4175],
    [43.733, 7.4195],
    [43.7345, 7.4195],
    [43.7345, 7.4175],
    [43.733, 7.4175],
  ]);
  const request = parseContextRequest({ polygon: ring });
  // 0.002° of longitude × 0.0015° of latitude at 43.73° N: ≈ 161 m × 167 m
  assert.ok(Math.abs(request.areaKm2 - 0.0269) < 0.001, `${request.areaKm2} km²`);
  assert.equal(request.areaKm2, ringAreaKm2(ring));
  assert.throws(() => polygonFromBbox('7.4195,43.733,7.4175,43.7345'), usage(/minimum must be below/));
  assert.throws(() => polygonFromBbox('7.4175,43.733,7.4195'), usage(/minLon,minLat,maxLon,maxLat/));
  assert.throws(() => polygonFromBbox('7.4175,43.733,,43.7345'), usage(/minLon,minLat,maxLon,maxLat/));
});

test('--polygon names a GeoJSON or KML file (told apart by content), "-" reads standard input, else pairs', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cc-polygon-'));
  const geojson = join(dir, 'site.txt');
  writeFileSync(geojson, '\uFEFF {"type":"Polygon","coordinates":[[[7.4,43.7],[7.41,43.7],[7.41,43.71],[7.4,43.7]]]}');
  const kml = join(dir, 'site.kml');
  writeFileSync(
    kml,
    '<kml><Placemark><Polygon><outerBoundaryIs><LinearRing><coordinates>7.4,43.7 7.41,43.7 7.41,43.71 7.4,43.7</coordinates></LinearRing></outerBoundaryIs></Polygon></Placemark></kml>',
  );
  const want = [
    [43.7, 7.4],
    [43.7, 7.41],
    [43.71, 7.41],
    [43.7, 7.4],
  ];
  assert.deepEqual(readPolygonArg(geojson).ring, want, 'GeoJSON by its first character, whatever the name');
  assert.deepEqual(readPolygonArg(kml).ring, want);
  assert.deepEqual(
    readPolygonArg('-', (p) =>
      p === 0 ? '{"type":"Feature","geometry":{"type":"Polygon","coordinates":[[[7.4,43.7],[7.41,43.7],[7.41,43.71],[7.4,43.7]]]}}' : '',
    ).ring,
    want,
  );
  assert.deepEqual(readPolygonArg('43.7,7.4 43.7,7.41 43.71,7.41').ring, want);
  assert.throws(() => readPolygonArg(join(dir, 'missing.geojson')), usage(/no file/));
  assert.throws(() => polygonFromText('{"type": ', 'x.json'), usage(/not valid JSON/));
  assert.throws(() => polygonFromText('PK\u0003\u0004', 'site.kmz'), usage(/KMZ/));
  assert.throws(() => polygonFromText('hello', 'x'), usage(/neither GeoJSON nor KML/));
});
