import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'undici';
import { inspectMesh } from '../../src/geometry/mesh-checks.ts';
import { ErrorBodySchema, GeometryResponseSchema } from '../../src/contract/response-schema.ts';
import type { RunningService } from '../../src/service.ts';
import { postContext, startTestService, toIndexedMesh } from '../support/service/http.ts';
import { MONACO_CENTRE, square } from '../support/polygons.ts';

let svc: RunningService;
let key: string;

before(async () => {
  svc = await startTestService();
  key = svc.demo!.key;
});
after(async () => {
  await svc?.close();
});

test('a ~0.5 km² request over Monaco returns hundreds of closed, outward LoD1 buildings', async () => {
  const polygon = square(MONACO_CENTRE[0], MONACO_CENTRE[1], 700);
  const r = await postContext(svc.url, key, { polygon, settings: { geometry: ['buildings'] } });
  assert.equal(r.status, 200, r.text.slice(0, 200));
  GeometryResponseSchema.parse(r.json);
  assert.deepEqual(r.json.origin, polygon[0]);
  assert.deepEqual(r.json.spatialReference, { crs: 'local', origin: polygon[0] });
  assert.ok(r.json.attributions.some((a: { text: string }) => a.text.includes('OpenStreetMap')));
  assert.deepEqual(r.json.dataAccess, { granted: 'full', suppressedCountries: [], reason: null });
  const groups = r.json.geometry;
  assert.deepEqual(
    groups.map((g: { type: string }) => g.type),
    ['buildings'],
  );
  const meshes = groups[0].meshes;
  assert.ok(meshes.length >= 300, `${meshes.length} buildings`);
  let bad = 0;
  for (const m of meshes) {
    const rep = inspectMesh(toIndexedMesh(m));
    if (!rep.closed || rep.volume <= 0 || rep.degenerate > 0 || rep.nonFinite > 0) bad++;
    assert.equal(m.descriptor.type, 'building');
    assert.match(m.descriptor.id, /^(way|relation)\/\d+$/);
  }
  assert.equal(bad, 0, `${bad} of ${meshes.length} meshes are not closed and outward`);
  // y is up by default: every building stands on y = 0 (no terrain requested) and rises from it
  const ys = meshes.flatMap((m: { vertices: number[] }) => m.vertices.filter((_, i) => i % 3 === 1));
  assert.ok(Math.min(...ys) >= 0 && Math.max(...ys) > 20);
  const withHeight = meshes.filter((m: { descriptor: { heightSource: string } }) => m.descriptor.heightSource !== 'default');
  assert.ok(withHeight.length > 50, 'height and levels tags are used');
});

test('indexed meshes, Z up and UTM change the encoding but not the model', async () => {
  const polygon = square(MONACO_CENTRE[0], MONACO_CENTRE[1], 250);
  const a = await postContext(svc.url, key, { polygon, settings: { geometry: ['buildings'] } });
  const b = await postContext(svc.url, key, { polygon, settings: { geometry: ['buildings'], indexedMeshes: true, upAxis: 'Z', crs: 'UTM' } });
  assert.equal(a.status, 200);
  assert.equal(b.status, 200);
  assert.equal(b.json.spatialReference.utmZoneEPSG, 'EPSG:32632');
  const ma = a.json.geometry[0].meshes,
    mb = b.json.geometry[0].meshes;
  assert.equal(ma.length, mb.length);
  const volume = (ms: any[]) => ms.reduce((s, m) => s + inspectMesh(toIndexedMesh(m)).volume, 0);
  // UTM scale factor at 7.4°E (zone 32, central meridian 9°E) is ~0.99963 per axis in the plane
  const ratio = volume(mb) / volume(ma);
  assert.ok(ratio > 0.999 && ratio < 1.0, `volume ratio ${ratio}`);
  for (const m of mb) {
    assert.ok(Array.isArray(m.indices) && m.indices.length % 3 === 0);
    assert.ok(m.vertices[0] > 300000 && m.vertices[1] > 4800000, 'UTM eastings and northings');
  }
});

test('errors follow the contract', async () => {
  const polygon = square(MONACO_CENTRE[0], MONACO_CENTRE[1], 200);
  const cases: [string, unknown, string | null, number, string][] = [
    ['no key', { polygon }, null, 401, 'unauthorized'],
    ['unknown key', { polygon }, 'cc_dev_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', 401, 'unauthorized'],
    ['bad json', '{"polygon": [', key, 400, 'invalid_json'],
    ['open ring', { polygon: polygon.slice(0, 4) }, key, 400, 'polygon_not_closed'],
    ['three points', { polygon: [polygon[0], polygon[1], polygon[0]] }, key, 400, 'polygon_too_few_points'],
    ['too large', { polygon: square(MONACO_CENTRE[0], MONACO_CENTRE[1], 4000) }, key, 400, 'polygon_too_large'],
    ['bow tie', { polygon: [polygon[0], polygon[2], polygon[1], polygon[3], polygon[0]] }, key, 400, 'polygon_self_intersecting'],
    ['bad roof', { polygon, settings: { defaultRoofType: 'tent' } }, key, 400, 'invalid_setting'],
  ];
  for (const [name, body, k, status, code] of cases) {
    const r = await postContext(svc.url, k, body);
    assert.equal(r.status, status, `${name}: ${r.text}`);
    assert.equal(r.json.code, code, name);
    ErrorBodySchema.parse(r.json);
    assert.match(String(r.headers['content-type']), /application\/json/);
  }
  const missing = await request(`${svc.url}/v2/nothing`);
  assert.equal(missing.statusCode, 404);
  assert.equal(((await missing.body.json()) as { code: string }).code, 'not_found');
  const wrongMethod = await request(`${svc.url}/v1/context`, { method: 'GET' });
  assert.equal(wrongMethod.statusCode, 405);
  assert.equal(((await wrongMethod.body.json()) as { code: string }).code, 'method_not_allowed');
});

test('a body over the limit gets 413 payload_too_large', async () => {
  const big = JSON.stringify({ polygon: square(MONACO_CENTRE[0], MONACO_CENTRE[1], 200), padding: 'x'.repeat(6 * 1024 * 1024) });
  const r = await postContext(svc.url, key, big);
  assert.equal(r.status, 413);
  assert.equal(r.json.code, 'payload_too_large');
});

test('the tolerant reader accepts unknown fields, nulls and LOCAL; gzip is honoured', async () => {
  const polygon = square(MONACO_CENTRE[0], MONACO_CENTRE[1], 200);
  const r = await postContext(svc.url, key, { polygon, settings: { geometry: ['buildings'], topographyReturnType: null, crs: 'LOCAL' }, requestId: 'x' });
  assert.equal(r.status, 200, r.text.slice(0, 200));
  const z = await request(`${svc.url}/v1/context`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'accept-encoding': 'gzip' },
    body: JSON.stringify({ polygon, settings: { geometry: ['buildings'] } }),
  });
  assert.equal(z.statusCode, 200);
  assert.equal(z.headers['content-encoding'], 'gzip');
  const { gunzipSync } = await import('node:zlib');
  const doc = JSON.parse(gunzipSync(Buffer.from(await z.body.arrayBuffer())).toString('utf8'));
  assert.equal(doc.geometry[0].meshes.length, r.json.geometry[0].meshes.length);
});

test('GET /v1/openapi.json serves the OpenAPI 3.1 document', async () => {
  const r = await request(`${svc.url}/v1/openapi.json`);
  assert.equal(r.statusCode, 200);
  const doc = (await r.body.json()) as { openapi: string; paths: Record<string, unknown> };
  assert.match(doc.openapi, /^3\.1/);
  assert.ok(doc.paths['/v1/context']);
});

test('no body whatsoever gets a 5xx: arbitrary JSON and broken requests get a 4xx with the error body (property, over HTTP)', async () => {
  const { default: fc } = await import('fast-check');
  const polygon = square(MONACO_CENTRE[0], MONACO_CENTRE[1], 150);
  const mutated = fc.oneof(
    fc.jsonValue(),
    fc.record({ polygon: fc.jsonValue() }),
    fc.record({
      polygon: fc.constant(polygon),
      settings: fc.dictionary(
        fc.constantFrom('geometry', 'crs', 'upAxis', 'defaultLevels', 'defaultRoofType', 'canopyMaxTrees', 'surfaceTypes'),
        fc.jsonValue(),
      ),
    }),
    fc.record({ polygon: fc.constant(polygon), origin: fc.jsonValue(), export: fc.jsonValue() }),
  );
  await fc.assert(
    fc.asyncProperty(mutated, async (body) => {
      const r = await postContext(svc.url, key, JSON.stringify(body));
      assert.ok(r.status < 500, `${r.status} for ${JSON.stringify(body).slice(0, 200)}`);
      if (r.status >= 400) {
        assert.equal(typeof r.json.error, 'string');
        assert.match(r.json.code, /^[a-z_]+$/);
      }
    }),
    { numRuns: 150 },
  );
});
