/**
 * Export CRS checks and the export frame against proj4 directly: a point of the local frame lands
 * at its grid position (absolute) or its grid offset from the origin (anchor), in every unit; the
 * US survey foot is kept for `ft` on a US-feet CRS; geographic, unknown and grid-shift CRSs are 400.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import proj4 from 'proj4';
import { ApiError } from '../../../src/contract/errors.ts';
import { createExportFrame, resolveExportCrs } from '../../../src/export/georef.ts';
import { createLocalFrame } from '../../../src/frame/local-frame.ts';

const ORIGIN = [43.7335, 7.419] as const;
const POINT = { lon: 7.4215, lat: 43.7351 }; // ~200 m north-east of the origin

const NEW_YORK = { origin: [40.75, -73.99] as const, point: { lon: -73.988, lat: 40.7512 } };
const CASES = [
  ...['EPSG:32632', 'EPSG:2154', 'EPSG:3857'].map((crs) => ({ crs, origin: ORIGIN, point: POINT })),
  { crs: 'EPSG:2263', ...NEW_YORK }, // US survey feet
  { crs: 'EPSG:2222', origin: [33.45, -112.07] as const, point: { lon: -112.068, lat: 33.4515 } }, // Arizona East (just west of its box, within the margin), international feet
];

for (const { crs, origin, point } of CASES) {
  for (const units of ['m', 'mm', 'ft', 'in'] as const) {
    for (const placement of ['anchor', 'absolute'] as const) {
      test(`${crs} ${units} ${placement}: a local point lands where proj4 puts it`, () => {
        const ORIGIN = origin,
          POINT = point;
        const c = resolveExportCrs(crs);
        const frame = createExportFrame({ origin: ORIGIN, crs: c, placement, units });
        const [x, y] = createLocalFrame(ORIGIN[0], ORIGIN[1]).toLocal(POINT.lon, POINT.lat);
        const p = new Float64Array([x, y, 12]);
        frame.transform(p);
        const usFt = c.gridUnitMetres !== 1;
        const unit = units === 'ft' && usFt ? c.gridUnitMetres : { m: 1, mm: 0.001, ft: 0.3048, in: 0.0254 }[units];
        const [e, n] = (proj4(c.proj4!, [POINT.lon, POINT.lat]) as number[]).map((v) => (v * c.gridUnitMetres) / unit);
        const [e0, n0] = (proj4(c.proj4!, [ORIGIN[1], ORIGIN[0]]) as number[]).map((v) => (v * c.gridUnitMetres) / unit);
        const want = placement === 'absolute' ? [e, n] : [e - e0, n - n0];
        const tol = 1e-4 / unit; // 0.1 mm
        assert.ok(Math.abs(p[0] - want[0]) < tol && Math.abs(p[1] - want[1]) < tol, `${p[0]},${p[1]} vs ${want}`);
        assert.ok(Math.abs(p[2] - 12 / unit) < 1e-9);
        assert.ok(Math.abs(frame.georef.originGrid[0] - e0) < tol && Math.abs(frame.georef.originGrid[1] - n0) < tol);
      });
    }
  }
}

test("ft on a US survey feet CRS gives the CRS's own grid numbers", () => {
  const c = resolveExportCrs('EPSG:2263');
  const f = createExportFrame({ origin: [40.75, -73.99], crs: c, placement: 'absolute', units: 'ft' });
  const [e, n] = proj4(c.proj4!, [-73.99, 40.75]) as number[];
  assert.ok(Math.abs(f.georef.originGrid[0] - e) < 1e-6 && Math.abs(f.georef.originGrid[1] - n) < 1e-6);
});

test('grid convergence: UTM 32 west of its central meridian turns grid north anticlockwise of true north', () => {
  const f = createExportFrame({ origin: ORIGIN, crs: resolveExportCrs('EPSG:32632'), placement: 'anchor', units: 'm' });
  // west of the central meridian true north leans east in the grid, so grid north is γ ≈ −Δλ·sin φ ≈ +1.09° anticlockwise of it
  const expected = -(((7.419 - 9) * Math.PI) / 180) * Math.sin((43.7335 * Math.PI) / 180);
  assert.ok(Math.abs(f.georef.gridConvergence - expected) < 2e-4, `${f.georef.gridConvergence} vs ${expected}`);
  assert.equal(createExportFrame({ origin: ORIGIN, crs: resolveExportCrs('local'), placement: 'anchor', units: 'm' }).georef.gridConvergence, 0);
});

test('a CRS far from its area of use is 400 with the area named; a neighbouring UTM zone is fine', () => {
  assert.throws(
    () => createExportFrame({ origin: ORIGIN, crs: resolveExportCrs('EPSG:2263'), placement: 'anchor', units: 'm' }),
    (e: unknown) => e instanceof ApiError && e.status === 400 && /area of use: United States \(USA\) - New York/.test(e.message),
  );
  assert.doesNotThrow(() => createExportFrame({ origin: ORIGIN, crs: resolveExportCrs('EPSG:32631'), placement: 'anchor', units: 'm' }));
  // a zone whose box crosses 180° (UTM 1N: 180°W–174°W) holds a point just west of the antimeridian within the margin
  assert.doesNotThrow(() => createExportFrame({ origin: [60, 179.5], crs: resolveExportCrs('EPSG:32601'), placement: 'anchor', units: 'm' }));
  assert.throws(() => createExportFrame({ origin: [60, 170], crs: resolveExportCrs('EPSG:32601'), placement: 'anchor', units: 'm' }), ApiError);
});

test('geographic, unknown, odd-unit and grid-shift CRSs are 400 invalid_setting with a reason', () => {
  for (const [crs, why] of [
    ['EPSG:4326', /geographic/],
    ['EPSG:999999', /no usable definition/],
    ['EPSG:27700', /grid-shift/],
  ] as const) {
    assert.throws(
      () => resolveExportCrs(crs),
      (e: unknown) => e instanceof ApiError && e.status === 400 && e.code === 'invalid_setting' && why.test(e.message),
      crs,
    );
  }
});
