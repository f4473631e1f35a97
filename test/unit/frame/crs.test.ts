import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import proj4 from 'proj4';
import { createLocalFrame } from '../../../src/frame/local-frame.ts';
import { affineBetween, mapRing, stableFrameAt } from '../../../src/frame/stable-frame.ts';
import { createOutputTransform, spatialReferenceFor } from '../../../src/frame/output-frame.ts';
import { utmZoneFor } from '../../../src/frame/utm.ts';

// Reference values computed once with PROJ's cs2cs 9 (Debian proj-bin), e.g.
//   cs2cs -f %.4f EPSG:4326 EPSG:32632 <<< "43.7350 7.4190"
const MONACO = [43.735, 7.419] as const;

test('the local frame agrees with PROJ (cs2cs) to the millimetre', () => {
  const f = createLocalFrame(MONACO[0], MONACO[1]);
  const a = f.toLocal(7.43, 43.745),
    b = f.toLocal(7.4, 43.72);
  assert.ok(Math.abs(a[0] - 886.038) < 0.001 && Math.abs(a[1] - 1111.1305) < 0.001, `${a}`);
  assert.ok(Math.abs(b[0] + 1531.0661) < 0.001 && Math.abs(b[1] + 1666.4284) < 0.001, `${b}`);
  assert.deepEqual(
    f.toLocal(MONACO[1], MONACO[0]).map((v) => Math.round(v * 1e6) / 1e6),
    [0, 0],
  );
});

test('local frame round trip returns the same lon/lat (property)', () => {
  fc.assert(
    fc.property(
      fc.double({ min: -80, max: 80, noNaN: true }),
      fc.double({ min: -179, max: 179, noNaN: true }),
      fc.double({ min: -5000, max: 5000, noNaN: true }),
      fc.double({ min: -5000, max: 5000, noNaN: true }),
      (lat, lon, x, y) => {
        const f = createLocalFrame(lat, lon);
        const [plon, plat] = f.toLonLat(x, y);
        const [bx, by] = f.toLocal(plon, plat);
        assert.ok(Math.abs(bx - x) < 1e-6 && Math.abs(by - y) < 1e-6, `${x},${y} -> ${bx},${by}`);
      },
    ),
    { numRuns: 500 },
  );
});

test('UTM and Web Mercator output match PROJ, with both axis conventions', () => {
  const f = createLocalFrame(MONACO[0], MONACO[1]);
  const [x, y] = f.toLocal(7.43, 43.745);
  const utmZ = createOutputTransform({ origin: MONACO, crs: 'UTM', upAxis: 'Z' });
  const p = Float64Array.from([x, y, 12]);
  utmZ(p);
  assert.ok(Math.abs(p[0] - 373588.0733) < 0.002 && Math.abs(p[1] - 4844748.8972) < 0.002 && p[2] === 12, `${p}`);
  const mercY = createOutputTransform({ origin: MONACO, crs: 'EPSG:3857', upAxis: 'Y' });
  const q = Float64Array.from([x, y, 12]);
  mercY(q);
  // Y up: x = east, y = up, z = -north
  assert.ok(Math.abs(q[0] - 827103.8166) < 0.002 && q[1] === 12 && Math.abs(q[2] + 5426064.7755) < 0.002, `${q}`);
  const localY = createOutputTransform({ origin: MONACO, crs: 'local', upAxis: 'Y' });
  const r = Float64Array.from([1, 2, 3]);
  localY(r);
  assert.deepEqual([...r], [1, 3, -2]);
});

test('UTM zone facts, including the Norway and Svalbard exceptions', () => {
  assert.deepEqual(spatialReferenceFor({ origin: MONACO, crs: 'UTM', upAxis: 'Y' }), {
    crs: 'UTM',
    utmZoneEPSG: 'EPSG:32632',
    zoneString: '32N',
    hemisphere: 'north',
    zone: 32,
    letter: 'T',
  });
  assert.equal(utmZoneFor(-33.9, 18.4).epsg, 'EPSG:32734'); // Cape Town
  assert.equal(utmZoneFor(60.4, 5.3).zone, 32); // Bergen
  assert.equal(utmZoneFor(78.2, 15.6).zone, 33); // Longyearbyen
  assert.deepEqual(spatialReferenceFor({ origin: [1, 2], crs: 'local', upAxis: 'Z' }), { crs: 'local', origin: [1, 2] });
});

test('the local frame projects exactly as proj4 does (forward bit for bit, inverse within 1e-12 degrees)', () => {
  fc.assert(
    fc.property(
      fc.double({ min: -80, max: 80, noNaN: true }),
      fc.double({ min: -179, max: 179, noNaN: true }),
      fc.double({ min: -0.2, max: 0.2, noNaN: true }),
      fc.double({ min: -0.2, max: 0.2, noNaN: true }),
      (lat0, lon0, dLat, dLon) => {
        const f = createLocalFrame(lat0, lon0);
        const reference = proj4('EPSG:4326', f.proj4);
        const lon = lon0 + dLon,
          lat = Math.max(-85, Math.min(85, lat0 + dLat));
        assert.deepEqual(f.toLocal(lon, lat), reference.forward([lon, lat]));
        const [x, y] = reference.forward([lon, lat]);
        const [rlon, rlat] = reference.inverse([x, y]);
        const [glon, glat] = f.toLonLat(x, y);
        assert.ok(Math.abs(glon - rlon) < 1e-12 && Math.abs(glat - rlat) < 1e-12, `${glon},${glat} vs ${rlon},${rlat}`);
      },
    ),
    { numRuns: 300 },
  );
});

test('a building built in its stable cell frame lands in the request frame within 0.1 mm of a direct projection', () => {
  fc.assert(
    fc.property(
      fc.double({ min: -70, max: 70, noNaN: true }),
      fc.double({ min: -170, max: 170, noNaN: true }),
      fc.double({ min: -0.09, max: 0.09, noNaN: true }),
      fc.double({ min: -0.09, max: 0.09, noNaN: true }),
      fc.array(fc.tuple(fc.double({ min: -0.004, max: 0.004, noNaN: true }), fc.double({ min: -0.004, max: 0.004, noNaN: true })), {
        minLength: 1,
        maxLength: 8,
      }),
      (lat, lon, dLat, dLon, corners) => {
        const request = createLocalFrame(lat + dLat, lon + dLon);
        const stable = stableFrameAt(lon, lat);
        const m = affineBetween(stable, request, lon, lat);
        for (const [cLon, cLat] of corners) {
          // corners up to ~450 m from the building's point, which is up to ~10 km from the request origin
          const [sx, sy] = stable.toLocal(lon + cLon, lat + cLat);
          const [mx, my] = mapRing(m, [sx, sy]);
          const [rx, ry] = request.toLocal(lon + cLon, lat + cLat);
          assert.ok(Math.hypot(mx - rx, my - ry) < 1e-4, `off by ${Math.hypot(mx - rx, my - ry)} m`);
        }
      },
    ),
    { numRuns: 300 },
  );
});
