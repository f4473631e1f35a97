/** CRS names as city models write them, and the conversion to WGS84 checked against PROJ's cs2cs. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseCrsName } from '../../../../src/sources/premium/crs-names.ts';
import { CrsError, resolveSourceCrs } from '../../../../src/sources/premium/crs.ts';
import { cs2csToLonLat, metresBetween } from '../../../support/premium-store.ts';

test('every spelling of an EPSG code, compound names and the AdV URNs', () => {
  const cases: [string, number[]][] = [
    ['EPSG:2056', [2056]],
    ['epsg:25833', [25833]],
    ['urn:ogc:def:crs:EPSG::7415', [7415]],
    ['urn:ogc:def:crs:EPSG:6.12:31467', [31467]],
    ['http://www.opengis.net/def/crs/EPSG/0/6697', [6697]],
    ['https://www.opengis.net/def/crs/EPSG/0/2056', [2056]],
    ['urn:ogc:def:crs,crs:EPSG::25832,crs:EPSG::7837', [25832, 7837]],
    ['http://www.opengis.net/def/crs-compound?1=http://www.opengis.net/def/crs/EPSG/0/28992&2=http://www.opengis.net/def/crs/EPSG/0/5709', [28992, 5709]],
    ['urn:adv:crs:ETRS89_UTM32*DE_DHHN92_NH', [25832]],
    ['urn:adv:crs:ETRS89_UTM33*DE_DHHN2016_NH', [25833]],
    ['urn:adv:crs:DE_DHDN_3GK3*DE_DHHN92_NH', [31467]],
    ['urn:adv:crs:ETRS89_Lat-Lon*DE_DHHN2016_NH', [4258]],
    ['4326', [4326]],
  ];
  for (const [text, codes] of cases) assert.deepEqual(parseCrsName(text)?.codes, codes, text);
  for (const text of ['', 'WGS84', 'urn:adv:crs:MY_OWN_GRID', 'local']) assert.equal(parseCrsName(text), null, text);
});

test('the horizontal part of compound CRSs; latitude first for geographic ones unless overridden', () => {
  assert.equal(resolveSourceCrs('urn:ogc:def:crs:EPSG::7415').label, 'EPSG:28992');
  assert.equal(resolveSourceCrs('EPSG:5555').label, 'EPSG:25832');
  assert.equal(resolveSourceCrs('urn:ogc:def:crs:EPSG::6697').label, 'EPSG:6668');
  assert.equal(resolveSourceCrs('EPSG:4326').axisOrder, 'north-east');
  assert.deepEqual(resolveSourceCrs('EPSG:4326').toLonLat(43.7, 7.4), [7.4, 43.7]);
  assert.deepEqual(resolveSourceCrs('EPSG:4326', null, 'east-north').toLonLat(7.4, 43.7), [7.4, 43.7]);
  assert.equal(resolveSourceCrs('EPSG:25832').axisOrder, 'east-north');
  assert.equal(resolveSourceCrs('EPSG:2056', 'EPSG:25832').label, 'EPSG:25832', 'the override wins over the file');
});

test('missing, unreadable and unknown CRSs are CrsErrors that say which', () => {
  assert.throws(
    () => resolveSourceCrs(null),
    (e: unknown) => e instanceof CrsError && /names no CRS/.test(e.message),
  );
  assert.throws(
    () => resolveSourceCrs('Gauss-Boaga'),
    (e: unknown) => e instanceof CrsError && /cannot read/.test(e.message),
  );
  assert.throws(
    () => resolveSourceCrs('EPSG:999999'),
    (e: unknown) => e instanceof CrsError && /unknown CRS/.test(e.message),
  );
});

test('conversions agree with PROJ (cs2cs) to 1 mm, the Dutch RD New grid included', () => {
  const cases: [string, [number, number][]][] = [
    ['EPSG:2056', [[2684572.43, 1246323.059]]],
    ['EPSG:25832', [[565000, 5933000]]],
    ['EPSG:25833', [[390478, 5819214]]],
    [
      'EPSG:28992',
      [
        [85010, 446010],
        [155000, 463000],
        [233000, 582000],
      ],
    ],
    ['EPSG:3857', [[824000, 5420000]]],
  ];
  for (const [crs, points] of cases) {
    const theirs = cs2csToLonLat(crs, points);
    const ours = resolveSourceCrs(crs);
    points.forEach((p, i) => {
      const d = metresBetween(ours.toLonLat(p[0], p[1]), theirs[i]);
      assert.ok(d <= 0.001, `${crs} ${p}: ${d} m from cs2cs`);
    });
  }
});

test('DHDN Gauss-Krüger converts with the EPSG Helmert (no BETA2007 grid here), within 3 m of PROJ with the grid', () => {
  const [ours] = [resolveSourceCrs('urn:adv:crs:DE_DHDN_3GK3*DE_DHHN92_NH').toLonLat(3500000, 5500000)];
  // PROJ takes EPSG:31467 northing first, and applies BETA2007.gsb (installed with proj-data)
  const [theirs] = cs2csToLonLat('EPSG:31467', [[5500000, 3500000]]);
  assert.ok(metresBetween(ours, theirs) < 3);
});
