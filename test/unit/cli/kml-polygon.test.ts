/** KML polygons as Google Earth saves them, read as the API's [lat, lon] ring. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { UsageError } from '../../../src/cli/command.ts';
import { polygonFromKml } from '../../../src/cli/kml-polygon.ts';
import { smallRing } from '../../support/arbitraries/contract.ts';

const kml = (coordinates: string, extra = '', prefix = '') => {
  const p = prefix ? `${prefix}:` : '';
  const ns = prefix ? `xmlns:${prefix}` : 'xmlns';
  return `<?xml version="1.0" encoding="UTF-8"?>
<${p}kml ${ns}="http://www.opengis.net/kml/2.2"><${p}Document><${p}Placemark><${p}name>Site</${p}name>
  <${p}Polygon><${p}extrude>0</${p}extrude><${p}outerBoundaryIs><${p}LinearRing>
    <${p}coordinates>${coordinates}</${p}coordinates>
  </${p}LinearRing></${p}outerBoundaryIs>${extra}</${p}Polygon>
</${p}Placemark></${p}Document></${p}kml>`;
};

const COORDS = `
  7.4175,43.7330,0 7.4195,43.7330,0
  7.4195,43.7345,0 7.4175,43.7345,0 7.4175,43.7330,0
`;
const RING: [number, number][] = [
  [43.733, 7.4175],
  [43.733, 7.4195],
  [43.7345, 7.4195],
  [43.7345, 7.4175],
  [43.733, 7.4175],
];

test("a Google Earth polygon's outer boundary, lon,lat,alt tuples, gives the [lat, lon] ring", () => {
  assert.deepEqual(polygonFromKml(kml(COORDS)), { ring: RING, notes: [] });
  assert.deepEqual(polygonFromKml(kml(COORDS, '', 'kml')).ring, RING, 'prefixed elements');
  assert.deepEqual(polygonFromKml(kml(`<![CDATA[${COORDS}]]>`)).ring, RING, 'coordinates in CDATA');
  assert.deepEqual(polygonFromKml(kml(COORDS.replaceAll(',0', ''))).ring, RING, 'without altitude');
});

test('any valid ring survives the trip through KML coordinates', () => {
  fc.assert(
    fc.property(smallRing, (ring) => {
      const text = ring.map(([lat, lon]) => `${lon},${lat},0`).join(' ');
      assert.deepEqual(polygonFromKml(kml(text)).ring, ring);
    }),
  );
});

test('an inner boundary is left out and said so; the hole coordinates are not read as the site', () => {
  const hole = '<innerBoundaryIs><LinearRing><coordinates>7.418,43.7335 7.419,43.7335 7.419,43.734 7.418,43.7335</coordinates></LinearRing></innerBoundaryIs>';
  const { ring, notes } = polygonFromKml(kml(COORDS, hole));
  assert.deepEqual(ring, RING);
  assert.match(notes[0], /1 hole/);
});

test('no polygon, two polygons, bad tuples or broken XML are usage errors with the reason', () => {
  const two = kml(COORDS).replace(
    '</Placemark>',
    `</Placemark><Placemark><Polygon><outerBoundaryIs><LinearRing><coordinates>${COORDS}</coordinates></LinearRing></outerBoundaryIs></Polygon></Placemark>`,
  );
  const cases: [string, RegExp][] = [
    ['<kml xmlns="http://www.opengis.net/kml/2.2"><Placemark><Point><coordinates>7.4,43.7</coordinates></Point></Placemark></kml>', /no Polygon/],
    [two, /2 polygons/],
    [kml('7.4175;43.7330 7.4195,43.7330'), /coordinate 0/],
    [kml('7.4175,43.7330,0,9'), /coordinate 0/],
    [kml(COORDS).replace('</Document>', ''), /not well-formed/],
  ];
  for (const [text, message] of cases)
    assert.throws(
      () => polygonFromKml(text),
      (e: unknown) => e instanceof UsageError && message.test(e.message),
    );
});
