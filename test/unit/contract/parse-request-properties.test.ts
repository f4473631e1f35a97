import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { area } from '@turf/turf';
import { parseContextRequest } from '../../../src/contract/parse-request.ts';
import { ApiError, type ErrorCode } from '../../../src/contract/errors.ts';
import type { ContextRequest } from '../../../src/contract/types.ts';
import {
  close,
  offset,
  place,
  SETTING_ENUMS,
  SPEC_EXPORT_DEFAULTS,
  SPEC_SETTING_DEFAULTS,
  validBody,
  type LatLon,
} from '../../support/arbitraries/contract.ts';

const given = (v: unknown) => v !== null && v !== undefined;

/** What the spec says the settings must become, computed from the body independently of src/contract. */
function expectedSettings(input: Record<string, unknown> | null | undefined): Record<string, unknown> {
  const s = input ?? {};
  const out: Record<string, unknown> = {};
  for (const [key, fallback] of Object.entries(SPEC_SETTING_DEFAULTS)) out[key] = given(s[key]) ? s[key] : fallback;
  if (typeof out.crs === 'string' && out.crs.toLowerCase() === 'local') out.crs = 'local';

  const names = out.geometry as string[];
  const geometry: string[] = [];
  for (const name of names) {
    const canonical = name === 'infrastructure' ? 'instances' : name;
    if (!geometry.includes(canonical)) geometry.push(canonical);
  }
  if (out.topographyModel === true && !geometry.includes('topography')) geometry.push('topography');
  out.geometry = geometry;
  out.topographyModel = geometry.includes('topography');
  const instancesName = names.find((n) => n === 'instances' || n === 'infrastructure');
  out.groupNames = instancesName ? { instances: instancesName } : {};
  out.surfaceTypes = [...new Set(out.surfaceTypes as string[])];
  return out;
}

function expectedExport(input: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { format: input.format };
  for (const [key, fallback] of Object.entries(SPEC_EXPORT_DEFAULTS)) out[key] = given(input[key]) ? input[key] : fallback;
  const crs = out.crs as string;
  out.crs = crs.toLowerCase() === 'local' ? 'local' : `EPSG:${Number(crs.split(':')[1])}`;
  return out;
}

test('property (a): every valid body parses, with all defaults applied', () => {
  fc.assert(
    fc.property(validBody, (body) => {
      let request: ContextRequest;
      try {
        request = parseContextRequest(body);
      } catch (error) {
        assert.fail(`rejected (${(error as ApiError).code}): ${(error as Error).message}`);
      }
      const polygon = body.polygon as LatLon[];
      assert.deepEqual(request.polygon, polygon);
      assert.deepEqual(request.origin, given(body.origin) ? body.origin : polygon[0]);
      assert.deepEqual(request.settings, expectedSettings(body.settings as Record<string, unknown> | null));
      if (given(body.export)) assert.deepEqual(request.export, expectedExport(body.export as Record<string, unknown>));
      else assert.equal(request.export, undefined);
      const turfKm2 = area({ type: 'Polygon', coordinates: [polygon.map(([lat, lon]) => [lon, lat])] }) / 1e6;
      assert.ok(Math.abs(request.areaKm2 - turfKm2) <= 1e-12 * Math.max(1, turfKm2));
      assert.ok(request.areaKm2 <= 10);
    }),
    { numRuns: 300 },
  );
});

// ---- (b): exactly one broken rule --------------------------------------------------------------

type Body = Record<string, unknown>;
interface Mutation {
  kind: string;
  name: string;
  code: ErrorCode;
  apply: (body: Body) => Body;
}

const withPolygon = (body: Body, polygon: unknown): Body => ({ ...body, polygon });
const settingsOf = (body: Body): Body => (body.settings && typeof body.settings === 'object' ? (body.settings as Body) : {});

/** Any index into the polygon (taken modulo its length). */
const pointIndex = fc.nat();

/** Places where a 20 km square stays clear of the poles and the antimeridian. */
const inland = fc.tuple(fc.double({ min: -70, max: 70, noNaN: true }), fc.double({ min: -170, max: 170, noNaN: true }));

const mutations: fc.Arbitrary<Mutation> = fc.oneof(
  fc.double({ min: 1e-9, max: 1e-3, noNaN: true }).map(
    (d): Mutation => ({
      kind: 'open',
      name: 'open ring',
      code: 'polygon_not_closed',
      apply: (b) => {
        const p = [...(b.polygon as LatLon[])];
        const last = p[p.length - 1];
        p[p.length - 1] = [last[0] + d, last[1]];
        return withPolygon(b, p);
      },
    }),
  ),
  fc.integer({ min: 0, max: 3 }).map(
    (k): Mutation => ({
      kind: 'few',
      name: 'too few points',
      code: 'polygon_too_few_points',
      apply: (b) => withPolygon(b, (b.polygon as LatLon[]).slice(0, k)),
    }),
  ),
  fc.tuple(pointIndex, fc.constantFrom<unknown[]>([], [43.7], [43.7, 7.4, 0], [43.7, 7.4, 0, 1])).map(
    ([i, bad]): Mutation => ({
      kind: 'pair',
      name: `pair of length ${bad.length}`,
      code: 'invalid_coordinate',
      apply: (b) => {
        const p: unknown[] = [...(b.polygon as LatLon[])];
        p[i % p.length] = bad;
        return withPolygon(b, p);
      },
    }),
  ),
  fc.tuple(pointIndex, fc.nat(1), fc.constantFrom<unknown>('NaN', 'Infinity', '-Infinity', '43.7', '', 'null', NaN, Infinity, -Infinity, null, true)).map(
    ([i, j, bad]): Mutation => ({
      kind: 'nonFinite',
      name: `non-finite coordinate ${String(bad)}`,
      code: 'invalid_coordinate',
      apply: (b) => {
        const p = (b.polygon as LatLon[]).map((q) => [...q] as unknown[]);
        p[i % p.length][j] = bad;
        return withPolygon(b, p);
      },
    }),
  ),
  fc.tuple(pointIndex, fc.double({ min: 90, max: 1e9, noNaN: true, minExcluded: true }), fc.boolean()).map(
    ([i, lat, south]): Mutation => ({
      kind: 'lat',
      name: 'latitude out of range',
      code: 'invalid_coordinate',
      apply: (b) => {
        const p = (b.polygon as LatLon[]).map((q) => [...q] as LatLon);
        p[i % p.length][0] = south ? -lat : lat;
        return withPolygon(b, p);
      },
    }),
  ),
  fc.tuple(pointIndex, fc.double({ min: 180, max: 1e9, noNaN: true, minExcluded: true }), fc.boolean()).map(
    ([i, lon, west]): Mutation => ({
      kind: 'lon',
      name: 'longitude out of range',
      code: 'invalid_coordinate',
      apply: (b) => {
        const p = (b.polygon as LatLon[]).map((q) => [...q] as LatLon);
        p[i % p.length][1] = west ? -lon : lon;
        return withPolygon(b, p);
      },
    }),
  ),
  fc
    .tuple(fc.constantFrom(...Object.keys(SETTING_ENUMS)), fc.string({ maxLength: 12 }))
    .filter(([key, value]) => !SETTING_ENUMS[key].includes(value) && !(key === 'crs' && value.toLowerCase() === 'local'))
    .map(
      ([key, value]): Mutation => ({
        kind: 'enum',
        name: `bad enum ${key}=${JSON.stringify(value)}`,
        code: 'invalid_setting',
        apply: (b) => ({ ...b, settings: { ...settingsOf(b), [key]: value } }),
      }),
    ),
  fc
    .tuple(
      fc.constantFrom('defaultLevels', 'defaultLevelHeight', 'canopyMinHeight', 'canopyMinSpacing', 'canopyMaxTrees'),
      fc.constantFrom(0, -1, 1e6, '3', true),
    )
    .map(
      ([key, value]): Mutation => ({
        kind: 'number',
        name: `bad number ${key}=${String(value)}`,
        code: 'invalid_setting',
        apply: (b) => ({ ...b, settings: { ...settingsOf(b), [key]: value } }),
      }),
    ),
  fc.tuple(inland, fc.double({ min: 3300, max: 19000, noNaN: true }), fc.double({ min: 3300, max: 19000, noNaN: true })).map(
    ([sw, w, h]): Mutation => ({
      kind: 'large',
      name: 'too large',
      code: 'polygon_too_large',
      apply: (b) => withPolygon(b, close([sw, offset(sw, w, 0), offset(sw, w, h), offset(sw, 0, h)])),
    }),
  ),
  fc.tuple(place, fc.double({ min: 1, max: 1000, noNaN: true }), fc.double({ min: 0, max: 2 * Math.PI, noNaN: true })).map(
    ([c, s, turn]): Mutation => ({
      kind: 'bowTie',
      name: 'bow-tie',
      code: 'polygon_self_intersecting',
      apply: (b) => {
        const at = (x: number, y: number) => offset(c, s * (x * Math.cos(turn) - y * Math.sin(turn)), s * (x * Math.sin(turn) + y * Math.cos(turn)));
        return withPolygon(b, close([at(-1, -1), at(1, 1), at(1, -1), at(-1, 1)]));
      },
    }),
  ),
  fc.tuple(fc.constantFrom('EPSG:3857', 'UTM'), fc.integer({ min: 1024, max: 99999 })).map(
    ([crs, code]): Mutation => ({
      kind: 'exportCrs',
      name: `export EPSG with settings.crs ${crs}`,
      code: 'invalid_setting',
      apply: (b) => ({ ...b, settings: { ...settingsOf(b), crs }, export: { format: 'obj', crs: `EPSG:${code}` } }),
    }),
  ),
  fc.constantFrom<unknown>([1], 'here', {}, [0, 181], [-91, 0]).map(
    (origin): Mutation => ({
      kind: 'origin',
      name: `bad origin ${JSON.stringify(origin)}`,
      code: 'invalid_coordinate',
      apply: (b) => ({ ...b, origin }),
    }),
  ),
  fc
    .tuple(fc.constantFrom('settings', 'export', 'polygon'), fc.constantFrom<unknown>('x', 7, true, []))
    .filter(([k, v]) => !(k === 'polygon' && Array.isArray(v)))
    .map(
      ([key, value]): Mutation => ({
        kind: 'type',
        name: `${key} of the wrong type`,
        code: 'invalid_request',
        apply: (b) => ({ ...b, [key]: value }),
      }),
    ),
);

test("property (b): a body that breaks exactly one rule gets that rule's code and a 4xx", () => {
  const ran = new Map<string, number>();
  fc.assert(
    fc.property(validBody, mutations, (body, mutation) => {
      ran.set(mutation.kind, (ran.get(mutation.kind) ?? 0) + 1);
      const broken = mutation.apply(body);
      try {
        parseContextRequest(broken);
      } catch (error) {
        assert.ok(error instanceof ApiError, `${mutation.name}: threw ${String(error)}`);
        assert.equal(error.code, mutation.code, `${mutation.name}: ${error.message}`);
        assert.ok(error.status >= 400 && error.status < 500);
        assert.ok(error.details.length > 0);
        return;
      }
      assert.fail(`${mutation.name}: accepted`);
    }),
    { numRuns: 600 },
  );
  // Every kind of mutation was exercised.
  assert.equal(ran.size, 13, JSON.stringify([...ran]));
  for (const [kind, count] of ran) assert.ok(count >= 10, `${kind} ran ${count} times`);
});

// ---- arbitrary values --------------------------------------------------------------------------

function expectOnlyApiError(value: unknown): void {
  try {
    parseContextRequest(value);
  } catch (error) {
    assert.ok(error instanceof ApiError, `threw ${String(error)}`);
    assert.ok(error.status >= 400 && error.status < 500, `status ${error.status}`);
    assert.equal(typeof error.message, 'string');
    assert.doesNotMatch(error.message, /\n/);
    assert.ok(Array.isArray(error.details));
    JSON.stringify(error.toBody()); // the body must serialise
  }
}

test('property: arbitrary JSON never produces anything but a 4xx ApiError', () => {
  fc.assert(fc.property(fc.jsonValue(), expectOnlyApiError), { numRuns: 500 });
  // Shaped like a request, with arbitrary JSON in every field, to reach the deeper checks.
  const shaped = fc.record(
    {
      polygon: fc.oneof(fc.jsonValue(), fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 12 })),
      origin: fc.jsonValue({ maxDepth: 2 }),
      settings: fc.oneof(fc.jsonValue(), fc.dictionary(fc.constantFrom(...Object.keys(SPEC_SETTING_DEFAULTS)), fc.jsonValue({ maxDepth: 2 }))),
      export: fc.oneof(fc.jsonValue(), fc.dictionary(fc.constantFrom('format', 'crs', 'placement', 'units', 'surfaceType'), fc.jsonValue({ maxDepth: 2 }))),
    },
    { requiredKeys: [] },
  );
  fc.assert(fc.property(shaped, expectOnlyApiError), { numRuns: 500 });
});

test('property: arbitrary JavaScript values (not only JSON) never produce anything but a 4xx ApiError', () => {
  const anything = fc.anything({
    withBigInt: true,
    withBoxedValues: true,
    withDate: true,
    withMap: true,
    withSet: true,
    withNullPrototype: true,
    withObjectString: true,
    withSparseArray: true,
    withTypedArray: true,
    maxDepth: 3,
  });
  fc.assert(fc.property(anything, expectOnlyApiError), { numRuns: 500 });
  fc.assert(
    fc.property(validBody, fc.constantFrom('polygon', 'origin', 'settings', 'export'), anything, (body, key, value) => {
      expectOnlyApiError({ ...body, [key]: value });
    }),
    { numRuns: 300 },
  );
});
