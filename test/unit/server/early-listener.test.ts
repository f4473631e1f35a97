import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { listenAddressFromEnv, listenEarly } from '../../../src/server/early-listener.ts';
import { HTTP_LIMIT_DEFAULTS } from '../../../src/server/http-limits.ts';

test('before the hand-over: /healthz 200, /readyz 503 not_ready as a JSON error body, other requests wait and are then served with their body', async () => {
  const early = await listenEarly({ host: '127.0.0.1', port: 0 }, HTTP_LIMIT_DEFAULTS);
  const base = `http://127.0.0.1:${(early.server.address() as AddressInfo).port}`;
  try {
    const health = await request(`${base}/healthz`);
    assert.equal(health.statusCode, 200);
    assert.deepEqual(await health.body.json(), { status: 'ok', inFlight: 0, queued: 0 });
    const ready = await request(`${base}/readyz`);
    assert.equal(ready.statusCode, 503);
    assert.match(String(ready.headers['content-type']), /^application\/json/);
    const body = (await ready.body.json()) as { error: string; code: string; details: unknown[] };
    assert.equal(body.code, 'not_ready');
    assert.match(body.error, /starting/);
    assert.equal(ready.headers['retry-after'], '1');

    let answered = false;
    const held = request(`${base}/v1/context`, { method: 'POST', body: 'hello' }).then(async (r) => {
      answered = true;
      return { status: r.statusCode, text: await r.body.text() };
    });
    await new Promise((r) => setTimeout(r, 100));
    assert.equal(answered, false, 'held until there is a handler');
    early.handOver((req, res) => {
      let text = '';
      req.on('data', (c: Buffer) => (text += c));
      req.on('end', () => res.end(`${req.method} ${req.url} ${text}`));
    });
    assert.deepEqual(await held, { status: 200, text: 'POST /v1/context hello' });
    const after = await request(`${base}/readyz`);
    assert.equal(await after.body.text(), 'GET /readyz ', 'the handler answers everything from then on');
  } finally {
    await new Promise((r) => early.server.close(r));
  }
});

test('HOST and PORT: defaults, port 0, and a bad port refused', () => {
  assert.deepEqual(listenAddressFromEnv({}), { host: '127.0.0.1', port: 8080 });
  assert.deepEqual(listenAddressFromEnv({ HOST: '0.0.0.0', PORT: '0' }), { host: '0.0.0.0', port: 0 });
  assert.throws(() => listenAddressFromEnv({ PORT: 'http' }), /PORT/);
  assert.throws(() => listenAddressFromEnv({ PORT: '70000' }), /PORT/);
});
