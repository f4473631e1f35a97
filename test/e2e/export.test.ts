/**
 * Exports through the real HTTP app, the real worker pool and the Monaco store (issue 10): a GLB
 * export answers 200 with an absolute, unguessable link to a file the Khronos validator passes;
 * a known OSM building corner lands where proj4 puts it for every placement × crs × units, to
 * 1 mm; bad CRSs are 400, skp/rvt 422 naming what those programs import; charged only when the
 * file was delivered. Most tests use a second app on the service's pool and accounts with an
 * in-memory store, so stored bytes can be read and a failing store simulated; one goes through
 * the service as started, its real store and the download route.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'undici';
import { NodeIO, type Node } from '@gltf-transform/core';
import { ExportResponseSchema } from '../../src/contract/response-schema.ts';
import { EXPORT_WRITERS } from '../../src/export/formats/index.ts';
import type { ExportDeps } from '../../src/server/export-handler.ts';
import type { RunningService } from '../../src/service.ts';
import { postContext } from '../support/service/http.ts';
import { square } from '../support/polygons.ts';
import { BUILDING, cornerIn, ORIGIN, POLYGON, startAppOn, startExportApp, type ExportApp } from '../support/service/export-app.ts';
import { TrustedProxies } from '../../src/server/trusted-proxies.ts';
import { Admission } from '../../src/server/admission.ts';
import { MemoryExportStore } from '../support/stores/memory-export-store.ts';
import { problems, validateGltf } from '../support/checks/gltf-validate.ts';

let svc: RunningService;
let url: string;
let app: ExportApp;
const store = new MemoryExportStore();
const exportDeps: ExportDeps = { store };
const logLines: string[] = [];

before(async () => {
  app = await startExportApp(exportDeps, (l) => {
    logLines.push(l);
    if (process.env.EXPORT_TEST_LOG) console.error(l);
  });
  ({ svc, url } = app);
});
after(async () => {
  await app?.close();
});

async function newAccount(balanceKm2 = 10) {
  const account = await svc.accounts.createAccount({ name: `x${Math.random()}`, balanceKm2, active: true });
  return { id: account.id, key: (await svc.accounts.createKey(account.id, 'development')).key };
}
const balanceOf = async (id: number) => (await svc.accounts.getAccount(id))!.balanceKm2;

function exportBody(exp: Record<string, unknown>) {
  return { polygon: POLYGON, origin: ORIGIN, settings: { geometry: ['buildings'] }, export: exp };
}

test('export glb: 200 {downloadUrl, spatialReference}, absolute unguessable link, a valid file, charged once', async () => {
  const { id, key } = await newAccount();
  const a = await postContext(url, key, exportBody({ format: 'glb' }));
  assert.equal(a.status, 200, a.text);
  ExportResponseSchema.parse(a.json);
  const m = /^http:\/\/127\.0\.0\.1:\d+\/v1\/exports\/([A-Za-z0-9_-]+)\/(city-context-43\.7340N-7\.4200E\.glb)$/.exec(a.json.downloadUrl);
  assert.ok(m, a.json.downloadUrl);
  assert.ok(Buffer.from(m[1], 'base64url').length >= 16, 'token of at least 128 bits');
  assert.equal(a.json.spatialReference.crs, 'local');
  assert.deepEqual(a.json.spatialReference.origin, ORIGIN);
  const bytes = store.bytesOf(a.json.downloadUrl)!;
  const report = await validateGltf(bytes);
  assert.equal(report.issues.numErrors, 0, problems(report));
  assert.equal(report.issues.numWarnings, 0, problems(report));
  const doc = await new NodeIO().readBinary(bytes);
  const names = doc
    .getRoot()
    .listNodes()
    .map((n) => n.getName());
  assert.ok(names.includes('buildings') && names.includes(BUILDING), 'group node and the building by id');
  const cost = Number(a.headers['x-cost-km2']);
  assert.ok(cost > 0 && Math.abs(10 - (await balanceOf(id)) - cost) < 1e-4, `charged its cost: ${10 - (await balanceOf(id))} vs ${cost}`);
});

test('through the service as started: the link downloads a valid GLB from its export store', async () => {
  const { key } = await newAccount();
  const a = await postContext(svc.url, key, exportBody({ format: 'glb', crs: 'EPSG:32632', placement: 'absolute' }));
  assert.equal(a.status, 200, a.text);
  assert.ok(a.json.downloadUrl.startsWith(`${svc.url}/v1/exports/`), a.json.downloadUrl);
  const res = await request(a.json.downloadUrl);
  assert.equal(res.statusCode, 200);
  assert.equal(res.headers['content-type'], 'model/gltf-binary');
  const bytes = new Uint8Array(await res.body.arrayBuffer());
  const report = await validateGltf(bytes);
  assert.equal(report.issues.numErrors + report.issues.numWarnings, 0, problems(report));
  const geo = ((await new NodeIO().readBinary(bytes)).getRoot().listScenes()[0].getExtras() as any).cityContext.georeference;
  assert.equal(geo.crs, 'EPSG:32632');
  assert.equal(geo.placement, 'absolute');
});

test('every group and every feature of the JSON answer is in the glb, which stays valid on real data with terrain', async () => {
  const { key } = await newAccount();
  const polygon = square(43.7345, 7.4195, 350);
  const settings = { geometry: ['buildings', 'surface', 'barriers', 'instances', 'topography'], projectToTopography: true };
  for (const surfaceType of ['meshes', 'centerlines'] as const) {
    const surfaceTypes = [surfaceType];
    const json = await postContext(url, key, { polygon, settings: { ...settings, surfaceTypes, topographyReturnType: 'meshes', upAxis: 'Z' } });
    assert.equal(json.status, 200);
    const want = new Map<string, number>(json.json.geometry.map((g: any) => [g.type, (g.meshes ?? g.nodes ?? g.polylines).length]));
    const a = await postContext(url, key, { polygon, settings, export: { format: 'glb', surfaceType, crs: 'EPSG:32632' } });
    assert.equal(a.status, 200, a.text);
    const bytes = store.bytesOf(a.json.downloadUrl)!;
    const report = await validateGltf(bytes);
    assert.equal(report.issues.numErrors + report.issues.numWarnings, 0, problems(report));
    const top = (await new NodeIO().readBinary(bytes)).getRoot().listScenes()[0].listChildren()[0];
    const got = new Map(top.listChildren().map((g) => [g.getName(), g.listChildren().length]));
    assert.deepEqual(got, want, surfaceType);
    for (const g of ['buildings', 'barriers', 'instances', 'topography']) assert.ok((got.get(g) ?? 0) > 0, `${g} not empty`);
  }
});

test('every registered format exports through the worker pool: 200, a file named for its extension with its content type', async () => {
  const { key } = await newAccount(100);
  for (const format of Object.keys(EXPORT_WRITERS)) {
    // STL (float32) refuses absolute grid coordinates: anchored, with the origin's grid position in its header
    const a = await postContext(url, key, exportBody({ format, units: 'mm', placement: format === 'stl' ? 'anchor' : 'absolute', crs: 'EPSG:32632' }));
    assert.equal(a.status, 200, `${format}: ${a.text}`);
    const name = decodeURIComponent(a.json.downloadUrl.split('/').pop());
    const stored = [...store.files.values()].find((f) => f.meta.name === name)!;
    assert.ok(stored && stored.bytes.length > 100, `${format}: stored`);
    assert.ok(name.startsWith('city-context-') && name.includes(`.${format}`), `${format}: ${name}`);
    assert.ok(stored.meta.contentType.length > 0, `${format}: content type`);
  }
});

test('the writer runs in the worker pool, never on the main thread', async () => {
  const { key } = await newAccount();
  const entry = EXPORT_WRITERS.glb!;
  const original = entry.load;
  let mainThreadLoads = 0;
  entry.load = () => {
    mainThreadLoads++;
    return original();
  }; // this module instance is the main thread's only
  try {
    const a = await postContext(url, key, exportBody({ format: 'glb' }));
    assert.equal(a.status, 200, a.text);
    assert.ok(store.bytesOf(a.json.downloadUrl)!.length > 1000);
  } finally {
    entry.load = original;
  }
  assert.equal(mainThreadLoads, 0);
});

test('the link uses the configured public base URL when there is one', async () => {
  const { key } = await newAccount();
  exportDeps.publicBaseUrl = 'https://context.example.com/';
  try {
    const a = await postContext(url, key, exportBody({ format: 'gltf' }));
    assert.equal(a.status, 200, a.text);
    assert.match(a.json.downloadUrl, /^https:\/\/context\.example\.com\/v1\/exports\/[A-Za-z0-9_-]{22,}\/city-context-[^/]+\.gltf$/);
    const report = await validateGltf(store.bytesOf(a.json.downloadUrl)!, 'model.gltf');
    assert.equal(report.issues.numErrors + report.issues.numWarnings, 0, problems(report));
  } finally {
    delete exportDeps.publicBaseUrl;
  }
});

test('the link never takes its host from the Host header; X-Forwarded-Host/-Proto count only from a trusted proxy', async () => {
  const { key } = await newAccount();
  const port = new URL(url).port;
  const forwarded = { host: 'evil.example', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' };
  const direct = await postContext(url, key, exportBody({ format: 'obj' }), forwarded);
  assert.equal(direct.status, 200, direct.text);
  assert.ok(direct.json.downloadUrl.startsWith(`http://127.0.0.1:${port}/v1/exports/`), direct.json.downloadUrl);

  const behindProxy = await startAppOn(svc, exportDeps, () => {}, { trustedProxies: new TrustedProxies(['127.0.0.0/8']) });
  try {
    // The proxy appends what it saw to what the client sent: its own (last) value counts.
    const headers = { 'x-forwarded-host': 'evil.example, city.example.com', 'x-forwarded-proto': 'https' };
    const viaProxy = await postContext(behindProxy.url, key, exportBody({ format: 'obj' }), headers);
    assert.equal(viaProxy.status, 200, viaProxy.text);
    assert.match(viaProxy.json.downloadUrl, /^https:\/\/city\.example\.com\/v1\/exports\//);
    const odd = await postContext(behindProxy.url, key, exportBody({ format: 'obj' }), { 'x-forwarded-host': 'a.example/evil?x=' });
    assert.ok(odd.json.downloadUrl.startsWith(`http://127.0.0.1:${new URL(behindProxy.url).port}/`), odd.json.downloadUrl);
  } finally {
    await behindProxy.close();
  }
});

test('exports and a small request side by side: the small one is answered while the exports still run', async () => {
  const { key } = await newAccount(100);
  const app2 = await startAppOn(svc, exportDeps, () => {}, { admission: new Admission({ maxInFlight: 2, maxQueue: 8, timeoutMs: 60_000 }) });
  try {
    const done: string[] = [];
    const post = (name: string, body: unknown) =>
      postContext(app2.url, key, body).then((a) => {
        done.push(name);
        return a;
      });
    // Every default group over a 600 m square: an export of a few seconds.
    const big = { polygon: square(43.7336, 7.4183, 600), origin: ORIGIN, export: { format: 'glb' } };
    const exports = [post('export1', big), post('export2', big)];
    await new Promise((r) => setTimeout(r, 300));
    const small = await post('small', { polygon: square(43.7336, 7.4183, 100), settings: { geometry: ['buildings'] } });
    const exported = await Promise.all(exports);
    assert.equal(small.status, 200, small.text);
    for (const a of exported) assert.equal(a.status, 200, a.text);
    assert.equal(done[0], 'small', `answered in the order ${done.join(', ')}: the small request waited for an export`);
  } finally {
    await app2.close();
  }
});

/** Translation of a node and all its ancestors (the writer uses translations only). */
function worldOffset(node: Node): number[] {
  const t = [0, 0, 0];
  for (let n: Node | null = node; n; n = n.getParentNode()) {
    const [x, y, z] = n.getTranslation();
    t[0] += x;
    t[1] += y;
    t[2] += z;
  }
  return t;
}

test('a known OSM building corner lands where proj4 puts it, to 1 mm, for every placement × crs × units (glb)', async () => {
  const { key } = await newAccount(100);
  let worst = 0;
  for (const crs of ['local', 'EPSG:32632', 'EPSG:2154', 'EPSG:3857']) {
    const [wantE, wantN] = cornerIn(crs);
    for (const placement of ['anchor', 'absolute']) {
      for (const units of ['m', 'mm', 'ft', 'in']) {
        const a = await postContext(url, key, exportBody({ format: 'glb', crs, placement, units }));
        assert.equal(a.status, 200, a.text);
        assert.equal(a.json.spatialReference.units, 'm', 'glTF is metres whatever was asked');
        const doc = await new NodeIO().readBinary(store.bytesOf(a.json.downloadUrl)!);
        const geo = (doc.getRoot().listScenes()[0].getExtras() as any).cityContext.georeference;
        assert.equal(geo.crs, crs);
        const node = doc
          .getRoot()
          .listNodes()
          .find((n) => n.getName() === BUILDING && n.getMesh())!;
        const [tx, ty, tz] = worldOffset(node);
        const pos = node.getMesh()!.listPrimitives()[0].getAttribute('POSITION')!;
        let best = Infinity;
        for (let i = 0; i < pos.getCount(); i++) {
          const [x, y, z] = pos.getElement(i, [0, 0, 0]) as number[];
          // the convention of the scene extras: world (X, Y, Z) = (E − E0, h, N0 − N) in anchor, (E, h, −N) in absolute
          const base = placement === 'anchor' ? geo.originGrid : [0, 0];
          const e = base[0] + (x + tx),
            n = base[1] - (z + tz),
            h = y + ty;
          best = Math.min(best, Math.hypot(e - wantE, n - wantN, h));
        }
        assert.ok(best < 1e-3, `${crs} ${placement} ${units}: corner off by ${(best * 1000).toFixed(2)} mm`);
        worst = Math.max(worst, best);
      }
    }
  }
  if (process.env.EXPORT_TEST_LOG) console.error(`worst corner error ${(worst * 1000).toFixed(3)} mm`);
});

test('settings.crs UTM or EPSG:3857 with export.crs local (the default) gives a file in that CRS', async () => {
  const { key } = await newAccount();
  for (const [crs, want] of [
    ['UTM', 'EPSG:32632'],
    ['EPSG:3857', 'EPSG:3857'],
    ['local', 'local'],
  ]) {
    const a = await postContext(url, key, { ...exportBody({ format: 'glb' }), settings: { geometry: ['buildings'], crs } });
    assert.equal(a.status, 200, a.text);
    assert.equal(a.json.spatialReference.crs, want);
  }
});

test('bad export CRSs are 400 invalid_setting with the reason; nothing is charged', async () => {
  const { id, key } = await newAccount();
  for (const [crs, why] of [
    ['EPSG:4326', /geographic/],
    ['EPSG:999999', /no usable definition/],
    ['EPSG:27700', /grid-shift/],
    ['EPSG:2263', /area of use: United States/],
  ] as const) {
    const a = await postContext(url, key, exportBody({ format: 'glb', crs }));
    assert.equal(a.status, 400, a.text);
    assert.equal(a.json.code, 'invalid_setting');
    assert.match(a.json.error, why);
    assert.deepEqual(a.json.details[0].path, ['export', 'crs']);
  }
  const utm = await postContext(url, key, { ...exportBody({ format: 'glb', crs: 'EPSG:32632' }), settings: { crs: 'UTM' } });
  assert.equal(utm.status, 400);
  assert.equal(await balanceOf(id), 10);
});

test('STL with absolute grid coordinates is 400 invalid_setting naming the float32 rounding and what to use; nothing is charged; a local frame or anchor passes', async () => {
  const { id, key } = await newAccount();
  for (const [body, step] of [
    [exportBody({ format: 'stl', crs: 'EPSG:32632', placement: 'absolute' }), /near 4,84\d,\d{3} m would be rounded to steps of 0\.5 m \(up to 0\.25 m off\)/],
    [exportBody({ format: 'stl', crs: 'EPSG:32632', placement: 'absolute', units: 'mm' }), /steps of 512 mm \(up to 0\.256 m off\)/],
    [{ ...exportBody({ format: 'stl', placement: 'absolute' }), settings: { geometry: ['buildings'], crs: 'UTM' } }, /EPSG:32632 grid coordinates/],
  ] as const) {
    const a = await postContext(url, key, body);
    assert.equal(a.status, 400, a.text);
    assert.equal(a.json.code, 'invalid_setting');
    assert.match(a.json.error, /^STL stores coordinates as float32: absolute EPSG:32632 grid coordinates/);
    assert.match(a.json.error, step);
    assert.match(a.json.error, /Use placement "anchor" .* or obj, ply, dae or dxf/);
    assert.deepEqual(a.json.details[0].path, ['export', 'placement']);
  }
  assert.equal(await balanceOf(id), 10);
  for (const exp of [
    { format: 'stl', placement: 'absolute' },
    { format: 'stl', crs: 'EPSG:32632', placement: 'anchor' },
    { format: 'ply', crs: 'EPSG:32632', placement: 'absolute' },
  ]) {
    const a = await postContext(url, key, exportBody(exp));
    assert.equal(a.status, 200, `${JSON.stringify(exp)}: ${a.text}`);
  }
});

test('skp and rvt are 422 format_unavailable naming what SketchUp and Revit import well', async () => {
  const { id, key } = await newAccount();
  const skp = await postContext(url, key, exportBody({ format: 'skp' }));
  assert.equal(skp.status, 422);
  assert.equal(skp.json.code, 'format_unavailable');
  assert.match(skp.json.error, /SketchUp imports dae, 3dm, dxf, ifc, stl/);
  const rvt = await postContext(url, key, exportBody({ format: 'rvt' }));
  assert.equal(rvt.status, 422);
  assert.match(rvt.json.error, /Revit imports ifc, dxf, 3dm, obj, stl/);
  assert.equal(await balanceOf(id), 10);
});

test('a client that leaves mid-export is not charged and is logged as an abort, not an internal error', async () => {
  const { id, key } = await newAccount();
  const body = {
    polygon: square(43.7365, 7.4215, 1000),
    settings: { geometry: ['buildings', 'surface', 'barriers', 'instances', 'topography'] },
    export: { format: 'glb' },
  };
  const from = logLines.length;
  await assert.rejects(
    request(`${url}/v1/context`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(300),
    }),
  );
  for (let i = 0; i < 200 && !logLines.slice(from).some((l) => /^export glb aborted/.test(l)); i++) await new Promise((r) => setTimeout(r, 50));
  const lines = logLines.slice(from);
  assert.ok(
    lines.some((l) => /^export glb aborted/.test(l)),
    lines.join('\n'),
  );
  assert.ok(!lines.some((l) => /internal error/.test(l)), lines.join('\n'));
  assert.equal(await balanceOf(id), 10);
});

test('an export that fails is not charged', async () => {
  const { id, key } = await newAccount();
  store.failPuts = true;
  try {
    const a = await postContext(url, key, exportBody({ format: 'glb' }));
    assert.equal(a.status, 500);
    assert.equal(a.json.code, 'internal_error');
  } finally {
    store.failPuts = false;
  }
  assert.equal(await balanceOf(id), 10);
});

test('an export no configured source has data for (latitude and longitude swapped) is free, and its answer says why in `warnings`', async () => {
  const { id, key } = await newAccount();
  const swapped = POLYGON.map(([lat, lon]) => [lon, lat]);
  const a = await postContext(url, key, { polygon: swapped, settings: { geometry: ['buildings'] }, export: { format: 'glb' } });
  assert.equal(a.status, 200, a.text);
  ExportResponseSchema.parse(a.json);
  assert.equal(a.headers['x-cost-km2'], '0.0000');
  const codes = a.json.warnings.map((w: { code: string }) => w.code);
  assert.deepEqual(codes.sort(), ['no_source_data', 'osm_unavailable']);
  assert.equal(await balanceOf(id), 10);
  assert.equal((await svc.accounts.usage(id, { limit: 1 }))[0]!.status, 'completed');
  // where the data is: charged, and no warnings
  const b = await postContext(url, key, exportBody({ format: 'glb' }));
  assert.deepEqual(b.json.warnings, []);
  assert.ok((await balanceOf(id)) < 10);
});
