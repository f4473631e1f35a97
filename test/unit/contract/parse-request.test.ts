import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseContextRequest } from '../../../src/contract/parse-request.ts';
import { ApiError, type ErrorCode } from '../../../src/contract/errors.ts';
import { close, MONACO, offset, rectangle, SPEC_EXPORT_DEFAULTS, SPEC_SETTING_DEFAULTS } from '../../support/arbitraries/contract.ts';

/** Around the Monaco Yacht Club: 400 m × 300 m. */
const POLYGON = rectangle(MONACO, 400, 300);

function failure(body: unknown): ApiError {
  try {
    parseContextRequest(body);
  } catch (error) {
    assert.ok(error instanceof ApiError, `threw ${String(error)}`);
    return error;
  }
  assert.fail(`accepted ${JSON.stringify(body).slice(0, 200)}`);
}

function expectCode(body: unknown, code: ErrorCode, path?: (string | number)[]): ApiError {
  const error = failure(body);
  assert.equal(error.code, code, error.message);
  assert.equal(error.status, 400);
  assert.match(error.message, /^[A-Za-z].*[.]$/, 'one sentence');
  assert.doesNotMatch(error.message, /\n|at .*\.ts:\d+/, 'no stack');
  if (path) assert.deepEqual(error.details[0].path, path);
  return error;
}

test('a bare polygon gets every default of the spec', () => {
  const request = parseContextRequest({ polygon: POLYGON });
  assert.deepEqual(request.polygon, POLYGON);
  assert.deepEqual(request.origin, POLYGON[0]);
  assert.equal(request.export, undefined);
  assert.deepEqual(request.settings, {
    ...SPEC_SETTING_DEFAULTS,
    geometry: [...SPEC_SETTING_DEFAULTS.geometry],
    surfaceTypes: ['meshes'],
    groupNames: { instances: 'instances' },
  });
  assert.ok(Math.abs(request.areaKm2 - 0.12) < 0.001, `area ${request.areaKm2}`);
});

test('explicit nulls mean "not given", unknown fields are ignored everywhere', () => {
  const request = parseContextRequest({
    polygon: POLYGON,
    origin: null,
    export: null,
    apiVersion: 3,
    settings: { upAxis: null, crs: null, geometry: null, canopyMaxTrees: null, colour: 'red', nested: { deep: [null] } },
  });
  assert.equal(request.settings.upAxis, 'Y');
  assert.equal(request.settings.crs, 'local');
  assert.deepEqual(request.settings.geometry, SPEC_SETTING_DEFAULTS.geometry);
  assert.equal(request.settings.canopyMaxTrees, 40000);
  assert.equal(request.export, undefined);
  assert.ok(!('colour' in request.settings));
  assert.ok(!('apiVersion' in request));
  assert.deepEqual(parseContextRequest({ polygon: POLYGON, settings: null }).settings, parseContextRequest({ polygon: POLYGON }).settings);
});

test('origin is kept when given', () => {
  const origin = offset(MONACO, 50, 50);
  assert.deepEqual(parseContextRequest({ polygon: POLYGON, origin }).origin, origin);
});

test("infrastructure is instances; the caller's name is remembered; repeats dropped", () => {
  const a = parseContextRequest({ polygon: POLYGON, settings: { geometry: ['infrastructure', 'buildings', 'instances', 'buildings'] } }).settings;
  assert.deepEqual(a.geometry, ['instances', 'buildings']);
  assert.deepEqual(a.groupNames, { instances: 'infrastructure' });
  const b = parseContextRequest({ polygon: POLYGON, settings: { geometry: ['instances', 'infrastructure'] } }).settings;
  assert.deepEqual(b.geometry, ['instances']);
  assert.deepEqual(b.groupNames, { instances: 'instances' });
  const c = parseContextRequest({ polygon: POLYGON, settings: { geometry: ['surface'] } }).settings;
  assert.deepEqual(c.groupNames, {}, 'no aliased group asked for');
});

test('topographyModel and topography in geometry are the same thing', () => {
  const a = parseContextRequest({ polygon: POLYGON, settings: { topographyModel: true } }).settings;
  assert.deepEqual(a.geometry, [...SPEC_SETTING_DEFAULTS.geometry, 'topography']);
  assert.equal(a.topographyModel, true);
  const b = parseContextRequest({ polygon: POLYGON, settings: { geometry: ['topography', 'buildings'], topographyModel: false } }).settings;
  assert.deepEqual(b.geometry, ['topography', 'buildings']);
  assert.equal(b.topographyModel, true);
  const c = parseContextRequest({ polygon: POLYGON, settings: { geometry: [], topographyModel: true } }).settings;
  assert.deepEqual(c.geometry, ['topography']);
  const d = parseContextRequest({ polygon: POLYGON, settings: { geometry: [] } }).settings;
  assert.deepEqual(d.geometry, []);
});

test('crs accepts any case of "local"; other enumerations are exact', () => {
  for (const crs of ['local', 'LOCAL', 'Local', 'lOcAl']) {
    assert.equal(parseContextRequest({ polygon: POLYGON, settings: { crs } }).settings.crs, 'local');
  }
  assert.equal(parseContextRequest({ polygon: POLYGON, settings: { crs: 'UTM' } }).settings.crs, 'UTM');
  for (const crs of ['utm', 'epsg:3857', 'EPSG:4326', ' local', '']) {
    expectCode({ polygon: POLYGON, settings: { crs } }, 'invalid_setting', ['settings', 'crs']);
  }
  const error = expectCode({ polygon: POLYGON, settings: { upAxis: 'y' } }, 'invalid_setting', ['settings', 'upAxis']);
  assert.equal(error.message, 'settings.upAxis must be one of "Y", "Z", not "y".');
  expectCode({ polygon: POLYGON, settings: { defaultRoofType: 'Gabled' } }, 'invalid_setting');
  expectCode({ polygon: POLYGON, settings: { geometry: ['buildings', 'surfaceLines'] } }, 'invalid_setting', ['settings', 'geometry', 1]);
  expectCode({ polygon: POLYGON, settings: { surfaceTypes: [] } }, 'invalid_setting', ['settings', 'surfaceTypes']);
});

test('surface types are deduplicated in order', () => {
  const settings = parseContextRequest({ polygon: POLYGON, settings: { surfaceTypes: ['outlines', 'meshes', 'outlines'] } }).settings;
  assert.deepEqual(settings.surfaceTypes, ['outlines', 'meshes']);
});

test('numeric settings: finite, typed and within bounds', () => {
  const ok = parseContextRequest({
    polygon: POLYGON,
    settings: { defaultLevels: 2.5, defaultLevelHeight: 3.2, canopyMinHeight: 1, canopyMinSpacing: 100, canopyMaxTrees: 1 },
  }).settings;
  assert.equal(ok.defaultLevels, 2.5);
  assert.equal(ok.canopyMaxTrees, 1);
  const bad: [string, unknown][] = [
    ['defaultLevels', 0],
    ['defaultLevels', -1],
    ['defaultLevels', 201],
    ['defaultLevels', '2'],
    ['defaultLevels', Infinity],
    ['defaultLevels', NaN],
    ['defaultLevelHeight', 0],
    ['defaultLevelHeight', 20.5],
    ['canopyMinHeight', 0.5],
    ['canopyMinHeight', 101],
    ['canopyMinSpacing', 0],
    ['canopyMinSpacing', 1000],
    ['canopyMaxTrees', 0],
    ['canopyMaxTrees', 40001],
    ['canopyMaxTrees', 12.5],
    ['cropScene', 'true'],
    ['cropScene', 1],
    ['indexedMeshes', []],
  ];
  for (const [field, value] of bad) {
    expectCode({ polygon: POLYGON, settings: { [field]: value } }, 'invalid_setting', ['settings', field]);
  }
  assert.equal(failure({ polygon: POLYGON, settings: { canopyMaxTrees: 40001 } }).message, 'settings.canopyMaxTrees must be at most 40000, not 40001.');
  assert.equal(failure({ polygon: POLYGON, settings: { defaultLevels: 0 } }).message, 'settings.defaultLevels must be greater than 0, not 0.');
});

test('export: defaults, EPSG normalisation, and the crs rule', () => {
  const plain = parseContextRequest({ polygon: POLYGON, export: { format: 'glb' } });
  assert.deepEqual(plain.export, { format: 'glb', ...SPEC_EXPORT_DEFAULTS });
  const epsg = parseContextRequest({ polygon: POLYGON, export: { format: 'obj', crs: 'epsg:032632', units: 'ft', placement: 'absolute' } });
  assert.deepEqual(epsg.export, { format: 'obj', crs: 'EPSG:32632', placement: 'absolute', units: 'ft', surfaceType: 'meshes' });
  assert.equal(parseContextRequest({ polygon: POLYGON, export: { format: 'dxf', crs: 'LOCAL' } }).export?.crs, 'local');
  // EPSG export coordinates need local output coordinates.
  for (const crs of ['UTM', 'EPSG:3857']) {
    const error = expectCode({ polygon: POLYGON, settings: { crs }, export: { format: 'obj', crs: 'EPSG:2056' } }, 'invalid_setting', ['export', 'crs']);
    assert.match(error.message, /settings\.crs/);
  }
  assert.equal(parseContextRequest({ polygon: POLYGON, settings: { crs: 'UTM' }, export: { format: 'obj', crs: 'local' } }).export?.crs, 'local');
  for (const crs of ['EPSG:', 'EPSG:0', 'EPSG:1234567', 'EPSG:32632 ', 'ESRI:102100', 'WGS84', 5]) {
    expectCode({ polygon: POLYGON, export: { format: 'obj', crs } }, 'invalid_setting', ['export', 'crs']);
  }
  assert.equal(expectCode({ polygon: POLYGON, export: {} }, 'invalid_setting', ['export', 'format']).message, 'export.format is required.');
  expectCode({ polygon: POLYGON, export: { format: 'OBJ' } }, 'invalid_setting', ['export', 'format']);
  expectCode({ polygon: POLYGON, export: { format: 'obj', units: 'cm' } }, 'invalid_setting', ['export', 'units']);
});

test('body-level shape problems are invalid_request', () => {
  for (const body of [null, 'polygon', 42, true, [], [POLYGON]]) expectCode(body, 'invalid_request', []);
  assert.equal(failure('x').message, 'The request body must be a JSON object, not "x".');
  expectCode({}, 'invalid_request', ['polygon']);
  expectCode({ polygon: null }, 'invalid_request', ['polygon']);
  expectCode({ polygon: 'POLYGON((7 43, …))' }, 'invalid_request', ['polygon']);
  expectCode({ polygon: { type: 'Polygon' } }, 'invalid_request', ['polygon']);
  for (const settings of ['fast', 3, [], true]) expectCode({ polygon: POLYGON, settings }, 'invalid_request', ['settings']);
  for (const exp of ['obj', 3, [{ format: 'obj' }]]) expectCode({ polygon: POLYGON, export: exp }, 'invalid_request', ['export']);
});

test('polygon codes come through with their details', () => {
  expectCode({ polygon: [[43.7, 7.4], [43.7]] }, 'invalid_coordinate', ['polygon', 1]);
  expectCode({ polygon: POLYGON.slice(0, 3) }, 'polygon_too_few_points', ['polygon']);
  expectCode({ polygon: POLYGON.slice(0, 4) }, 'polygon_not_closed', ['polygon', 3]);
  const p = (e: number, n: number) => offset(MONACO, e, n);
  expectCode({ polygon: close([p(0, 0), p(100, 100), p(100, 0), p(0, 100)]) }, 'polygon_self_intersecting');
  const large = expectCode({ polygon: rectangle(MONACO, 4000, 3000) }, 'polygon_too_large');
  assert.ok((large.details[0].areaKm2 as number) > 11.9);
  assert.equal(large.details[0].maxAreaKm2, 10);
  expectCode({ polygon: POLYGON, origin: [43.7] }, 'invalid_coordinate', ['origin']);
  expectCode({ polygon: POLYGON, origin: [43.7, 190] }, 'invalid_coordinate', ['origin', 1]);
  expectCode({ polygon: POLYGON, origin: 'here' }, 'invalid_coordinate', ['origin']);
});

test('several problems: the leading code follows body, polygon, origin, settings; all are in details', () => {
  const error = failure({ polygon: POLYGON.slice(0, 4), origin: [99, 0], settings: { upAxis: 'x', crs: 'nope' } });
  assert.equal(error.code, 'polygon_not_closed');
  assert.deepEqual(
    error.details.map((d) => d.code),
    ['polygon_not_closed', 'invalid_coordinate', 'invalid_setting', 'invalid_setting'],
  );
  for (const detail of error.details) assert.match(detail.message, /^[A-Za-z].*[.]$/);
  const body = failure({ polygon: POLYGON, settings: 'x', export: { format: 'nope' } });
  assert.equal(body.code, 'invalid_request');
});

test('weird values never escape as anything but ApiError', () => {
  const deep: unknown[] = [];
  let cursor = deep;
  for (let i = 0; i < 100_000; i++) {
    const next: unknown[] = [];
    cursor.push(next);
    cursor = next;
  }
  const hostile = [
    { polygon: [deep, deep, deep, deep] },
    { polygon: POLYGON, settings: { geometry: deep } },
    { polygon: POLYGON, extra: deep },
    { polygon: Array.from({ length: 200_000 }, () => [1, 2, 3]) },
    { polygon: POLYGON, settings: { geometry: Array.from({ length: 100_000 }, () => 'buildings') } },
    Object.create(null),
    {
      polygon: POLYGON,
      get settings() {
        throw new Error('boom');
      },
    },
    new Proxy(
      {},
      {
        get() {
          throw new Error('trap');
        },
      },
    ),
    { polygon: POLYGON, settings: { geometry: ['buildings', null] } },
    { polygon: [[1n, 2n]] },
    { polygon: POLYGON, settings: { cropScene: Symbol('x') } },
  ];
  const accepted: number[] = [];
  hostile.forEach((body, i) => {
    try {
      parseContextRequest(body);
      accepted.push(i);
    } catch (error) {
      assert.ok(error instanceof ApiError, String(error));
      assert.ok(error.status >= 400 && error.status < 500);
      assert.doesNotMatch(error.message, /boom|trap/, 'internal error text must not leak');
    }
  });
  // Only the deep unknown field (ignored) and the long-but-valid geometry list pass.
  assert.deepEqual(accepted, [2, 4]);
  assert.deepEqual(parseContextRequest(hostile[4]).settings.geometry, ['buildings']);
});
