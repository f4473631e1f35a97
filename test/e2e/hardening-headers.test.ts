/**
 * Headers every answer carries (`X-Content-Type-Options: nosniff`) and cross-origin requests from
 * browser apps: off unless CITY_CORS_ORIGINS lists the page's origin, preflight answered.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'undici';
import { CorsPolicy } from '../../src/server/cors.ts';
import { startFakeApp, smallBody, type FakeApp } from '../support/service/fake-app.ts';
import { postContext } from '../support/service/http.ts';
import { openSocket, readAll } from '../support/service/raw-http.ts';

async function withApp(options: Parameters<typeof startFakeApp>[0], fn: (app: FakeApp) => Promise<void>) {
  const app = await startFakeApp(options);
  try {
    await fn(app);
  } finally {
    await app.close();
  }
}

const APP_ORIGIN = 'https://maps.example.com';

test('every answer says nosniff: 200s, error bodies, the openapi document and the parser-level refusals', () =>
  withApp({}, async (app) => {
    const { key } = await app.newKey(10);
    const answers = [
      await postContext(app.url, key, smallBody()),
      await postContext(app.url, null, smallBody()),
      await postContext(app.url, key, '{"polygon": nope'),
    ];
    for (const path of ['/healthz', '/readyz', '/v1/openapi.json', '/nowhere']) {
      const r = await request(`${app.url}${path}`);
      await r.body.dump();
      answers.push({ status: r.statusCode, headers: r.headers, text: '', json: null });
    }
    assert.deepEqual(
      answers.map((a) => a.status),
      [200, 401, 400, 200, 200, 200, 404],
    );
    for (const a of answers) assert.equal(a.headers['x-content-type-options'], 'nosniff', `status ${a.status}`);
    const socket = await openSocket(app.port);
    socket.write('GARBAGE\r\n\r\n');
    assert.match(await readAll(socket), /^HTTP\/1\.1 400 [\s\S]*\r\nX-Content-Type-Options: nosniff\r\n/i);
  }));

test('CORS is off by default: no Access-Control header, and a preflight is refused', () =>
  withApp({}, async (app) => {
    const { key } = await app.newKey(10);
    const r = await postContext(app.url, key, smallBody(), { origin: APP_ORIGIN });
    assert.equal(r.status, 200);
    assert.equal(r.headers['access-control-allow-origin'], undefined);
    const preflight = await request(`${app.url}/v1/context`, {
      method: 'OPTIONS',
      headers: { origin: APP_ORIGIN, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,content-type' },
    });
    assert.equal(preflight.statusCode, 405);
    assert.equal(((await preflight.body.json()) as { code: string }).code, 'method_not_allowed');
    assert.equal(preflight.headers['access-control-allow-origin'], undefined);
  }));

test('with CITY_CORS_ORIGINS a listed origin gets its preflight and can read answers and errors; others cannot', () =>
  withApp({ cors: new CorsPolicy([APP_ORIGIN]) }, async (app) => {
    const { key } = await app.newKey(10);
    const preflight = await request(`${app.url}/v1/context`, {
      method: 'OPTIONS',
      headers: { origin: APP_ORIGIN, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,content-type' },
    });
    await preflight.body.dump();
    assert.equal(preflight.statusCode, 204);
    assert.equal(preflight.headers['access-control-allow-origin'], APP_ORIGIN);
    assert.match(String(preflight.headers['access-control-allow-methods']), /\bPOST\b/);
    assert.match(String(preflight.headers['access-control-allow-headers']), /\bAuthorization\b.*\bContent-Type\b/i);
    assert.equal(preflight.headers['access-control-allow-credentials'], undefined);

    const ok = await postContext(app.url, key, smallBody(), { origin: APP_ORIGIN });
    assert.equal(ok.status, 200);
    assert.equal(ok.headers['access-control-allow-origin'], APP_ORIGIN);
    assert.match(String(ok.headers['access-control-expose-headers']), /X-Cost-Km2/i);
    const refused = await postContext(app.url, 'cc_dev_nope', smallBody(), { origin: APP_ORIGIN });
    assert.equal(refused.status, 401);
    assert.equal(refused.headers['access-control-allow-origin'], APP_ORIGIN, 'the page can read why it was refused');

    const elsewhere = await postContext(app.url, key, smallBody(), { origin: 'https://evil.example' });
    assert.equal(elsewhere.status, 200);
    assert.equal(elsewhere.headers['access-control-allow-origin'], undefined);
    assert.match(String(elsewhere.headers.vary), /origin/i);
    const foreignPreflight = await request(`${app.url}/v1/context`, {
      method: 'OPTIONS',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    });
    await foreignPreflight.body.dump();
    assert.equal(foreignPreflight.statusCode, 405);
    assert.equal(foreignPreflight.headers['access-control-allow-origin'], undefined);
  }));
