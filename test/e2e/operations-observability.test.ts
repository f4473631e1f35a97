/**
 * What an operator sees of a running service (docs/operations.md "Logs and metrics"): the real
 * service on the Monaco sample, a paid request, then its JSON log line, its X-Request-Id, the
 * metrics it moved (parsed as Prometheus text) — and neither the logs nor the metrics hold the key.
 * /readyz follows the stores: a store that cannot be read turns it 503 by name, and back.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, renameSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { loadConfig, storePaths } from '../../src/config.ts';
import { startService, type RunningService } from '../../src/service.ts';
import { TrustedProxies } from '../../src/server/trusted-proxies.ts';
import { postContext } from '../support/service/http.ts';
import { square } from '../support/polygons.ts';
import { parsePrometheusText, type Sample } from '../support/checks/prometheus-text.ts';

let svc: RunningService;
const lines: string[] = [];

before(async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'cc-ops-'));
  const config = {
    ...loadConfig({ CITY_DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1' }),
    workers: 1,
    warmUpMs: 200,
    warmUpRequestsMs: 0,
    trustedProxies: new TrustedProxies(['127.0.0.1']),
  };
  svc = await startService(config, (l) => lines.push(l));
  await svc.ready;
});
after(async () => {
  await svc?.close();
});

async function metrics(): Promise<{ samples: Sample[]; text: string; type: string }> {
  const res = await request(`${svc.url}/metrics`);
  const text = await res.body.text();
  assert.equal(res.statusCode, 200);
  const families = parsePrometheusText(text);
  return { samples: [...families.values()].flatMap((f) => f.samples), text, type: String(res.headers['content-type']) };
}

function find(samples: Sample[], name: string, labels: Record<string, string> = {}): number | undefined {
  return samples.find((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))?.value;
}

test('a paid request: one JSON log line with its id, account, area, groups, status, time and bytes; the id in X-Request-Id; the metrics moved; the key nowhere', async () => {
  const account = await svc.accounts.createAccount({ name: 'ops', balanceKm2: 10 });
  const { key } = await svc.accounts.createKey(account.id, 'production');
  const before = lines.length;
  const answer = await postContext(svc.url, key, { polygon: square(43.7345, 7.419, 300), settings: { geometry: ['buildings', 'barriers'] } });
  assert.equal(answer.status, 200, answer.text);
  const id = String(answer.headers['x-request-id']);
  assert.match(id, /^[0-9a-f-]{36}$/);
  const refused = await postContext(svc.url, `${key.slice(0, -4)}abcd`, { polygon: square(43.7345, 7.419, 300) });
  assert.equal(refused.status, 401);

  const logged = lines
    .slice(before)
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l));
  const entry = logged.find((e) => e.requestId === id);
  assert.ok(entry, `a JSON line for ${id}`);
  assert.equal(entry.msg, 'request');
  assert.equal(entry.route, '/v1/context');
  assert.equal(entry.status, 200);
  assert.equal(entry.complete, true);
  assert.equal(entry.accountId, account.id);
  assert.deepEqual(entry.groups, ['buildings', 'barriers']);
  assert.ok(Math.abs(entry.areaKm2 - 0.09) < 0.005, String(entry.areaKm2));
  assert.ok(entry.bytes >= Buffer.byteLength(answer.text), `${entry.bytes} bytes logged, ${answer.text.length} received`);
  assert.ok(entry.ms >= 0);
  const unauthorized = logged.find((e) => e.requestId === refused.headers['x-request-id']);
  assert.equal(unauthorized.status, 401);
  assert.equal(unauthorized.code, 'unauthorized');
  assert.equal(unauthorized.level, 'warn');

  const { samples, text, type } = await metrics();
  assert.match(type, /^text\/plain; version=0\.0\.4/);
  assert.ok(find(samples, 'city_http_requests_total', { route: '/v1/context', method: 'POST', status: '200', code: '' })! >= 1);
  assert.ok(find(samples, 'city_http_requests_total', { route: '/v1/context', status: '401', code: 'unauthorized' })! >= 1);
  assert.ok(find(samples, 'city_http_request_duration_seconds_count', { route: '/v1/context', status: '200' })! >= 1);
  assert.ok(find(samples, 'city_tile_build_seconds_count', { family: 'buildings' })! >= 1);
  assert.ok(find(samples, 'city_tile_build_seconds_count', { family: 'barriers' })! >= 1);
  const cost = Number(answer.headers['x-cost-km2']);
  assert.ok(Math.abs(find(samples, 'city_km2_total', { event: 'reserved' })! - cost) < 1e-4);
  assert.ok(Math.abs(find(samples, 'city_km2_total', { event: 'charged' })! - cost) < 1e-4);
  for (const gauge of ['city_requests_in_flight', 'city_requests_queued', 'city_tile_pool_queue_length', 'city_tile_pool_running']) {
    assert.equal(find(samples, gauge), 0, gauge);
  }
  assert.notEqual(find(samples, 'process_cpu_seconds_total'), undefined, 'default process metrics');
  assert.notEqual(find(samples, 'city_export_bytes_stored_total'), undefined);

  const secret = key.slice(-16);
  for (const where of [text, lines.join('\n')]) {
    assert.ok(!where.includes(key), 'the key');
    assert.ok(!where.includes(secret), "the key's secret part");
  }
});

test('/healthz, /readyz and /metrics need no key; a key sent to them is not logged either', async () => {
  for (const path of ['/healthz', '/readyz', '/metrics']) {
    const res = await request(`${svc.url}${path}`, { headers: { authorization: 'Bearer cc_live_notakey' } });
    await res.body.dump();
    assert.equal(res.statusCode, 200, path);
  }
  assert.ok(!lines.join('\n').includes('notakey'));
});

test('an X-Request-Id from a trusted proxy is kept and logged', async () => {
  const account = await svc.accounts.createAccount({ name: 'ops2', balanceKm2: 1 });
  const { key } = await svc.accounts.createKey(account.id, 'production');
  const answer = await postContext(svc.url, key, { polygon: square(43.7345, 7.419, 50), settings: { geometry: ['buildings'] } }, { 'x-request-id': 'lb-1234' });
  assert.equal(answer.status, 200);
  assert.equal(answer.headers['x-request-id'], 'lb-1234');
  assert.ok(lines.some((l) => l.startsWith('{') && JSON.parse(l).requestId === 'lb-1234'));
});

test('/readyz says 503 naming the OSM store while it cannot be read, and 200 once it can again', async () => {
  const path = storePaths(svc.config.dataDir).osm;
  renameSync(path, `${path}.away`);
  try {
    const res = await request(`${svc.url}/readyz`);
    const body = (await res.body.json()) as { code: string; details: { check: string }[] };
    assert.equal(res.statusCode, 503);
    assert.equal(body.code, 'not_ready');
    assert.deepEqual(
      body.details.map((d) => d.check),
      ['osm-store'],
    );
  } finally {
    renameSync(`${path}.away`, path);
  }
  const back = await request(`${svc.url}/readyz`);
  assert.deepEqual(await back.body.json(), { status: 'ready' });
});
