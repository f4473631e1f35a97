/**
 * The service listens first and warms up behind `/readyz` (src/server/early-listener.ts,
 * src/server/readiness.ts): started as `npm start` runs it, it answers `/healthz` and a 503
 * `not_ready` from `/readyz` while it starts, serves a request sent at once (the request waits for
 * the workers and cuts the warm-up short), and then says it is ready. How fast is the bench's
 * business (scripts/bench/lib/start-up-bench.ts); here only the order of things.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { SqliteAccountStore } from '../../src/accounts/index.ts';
import { REPO_ROOT, storePaths } from '../../src/config.ts';
import { loadConfig } from '../../src/config.ts';
import { startService } from '../../src/service.ts';
import { spawnServer, waitForStatus } from '../support/service/compiled-server.ts';
import { postContext } from '../support/service/http.ts';
import { square } from '../support/polygons.ts';

async function getJson(url: string): Promise<{ status: number; type: string; json: Record<string, unknown> }> {
  const res = await request(url);
  const text = await res.body.text();
  return { status: res.statusCode, type: String(res.headers['content-type']), json: JSON.parse(text) };
}

test('the service listens at once, answers /readyz 503 then 200, and serves a request sent before it was ready', { timeout: 180_000 }, async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'cc-start-'));
  // A key before the first start, so the request can go out the moment the port answers
  // (the demo key is written only once the service's code has loaded).
  const accounts = await SqliteAccountStore.open(storePaths(dataDir).accounts);
  const account = await accounts.createAccount({ name: 'early', balanceKm2: 100 });
  const { key } = await accounts.createKey(account.id, 'production');
  await accounts.close();
  // A first start on an empty store (it is built behind the server) and a long warm-up on whole
  // requests, which only the request below can end before /readyz turns 200.
  const server = await spawnServer(
    dataDir,
    join(REPO_ROOT, 'data/monaco/monaco.osm.pbf'),
    { CITY_WORKERS: '2', CITY_WARMUP_MS: '1000', CITY_WARMUP_REQUESTS_MS: '600000' },
    { output: true },
  );
  try {
    assert.ok(await waitForStatus(server, '/healthz', 200, 10), 'the service listens');
    const notReady = await getJson(`${server.base}/readyz`);
    assert.equal(notReady.status, 503, 'not ready while it starts');
    assert.match(notReady.type, /^application\/json/);
    assert.equal(notReady.json.code, 'not_ready');
    assert.equal(typeof notReady.json.error, 'string');
    assert.ok(Array.isArray(notReady.json.details));

    const polygon = square(43.7345, 7.419, 300);
    const early = await postContext(server.base, key, { polygon, settings: { geometry: ['buildings'] } });
    assert.equal(early.status, 200, early.text);
    const buildings = early.json.geometry.find((g: { type: string }) => g.type === 'buildings');
    assert.ok(buildings.meshes.length > 10, 'the buildings of the square, from the workers');

    assert.ok(await waitForStatus(server, '/readyz', 200), '/readyz turns 200');
    assert.deepEqual((await getJson(`${server.base}/readyz`)).json, { status: 'ready' });
    assert.match(server.output(), /cut short by the first request/, 'the request ended the warm-up');
    const again = await postContext(server.base, key, { polygon, settings: { geometry: ['buildings'] } });
    assert.equal(again.status, 200);
    assert.equal(again.text, early.text, 'the same answer before and after the warm-up');
  } finally {
    server.child.kill('SIGTERM');
    await server.exited;
  }
});

test('a request that arrives during the warm-up on whole requests ends it, the request in progress included, and is served', { timeout: 180_000 }, async () => {
  const lines: string[] = [];
  const dataDir = mkdtempSync(join(tmpdir(), 'cc-start-'));
  const config = { ...loadConfig({ CITY_DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1' }), workers: 2, warmUpMs: 100, warmUpRequestsMs: 600_000 };
  const svc = await startService(config, (line) => lines.push(line));
  try {
    let phase = '';
    while (phase !== 'warming up on whole requests') {
      const r = await getJson(`${svc.url}/readyz`);
      assert.equal(r.status, 503, 'not ready before the warm-up on whole requests has ended');
      phase = String((r.json.details as { phase: string }[])[0].phase);
      await new Promise((res) => setTimeout(res, 20));
    }
    const answer = await postContext(svc.url, svc.demo!.key, { polygon: square(43.7345, 7.419, 300), settings: { geometry: ['buildings'] } });
    assert.equal(answer.status, 200, answer.text);
    await svc.ready;
    assert.deepEqual((await getJson(`${svc.url}/readyz`)).json, { status: 'ready' });
    assert.ok(
      lines.some((l) => /^Warmed up on \d+ whole requests in \d+ ms, cut short by the first request$/.test(l)),
      lines.join(' | '),
    );
    assert.equal((await svc.accounts.usage(svc.demo!.accountId)).length, 1, 'only the real request is in the ledger');
  } finally {
    await svc.close();
  }
});
