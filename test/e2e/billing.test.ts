import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { setTimeout as delay } from 'node:timers/promises';
import { request } from 'undici';
import type { Piscina } from 'piscina';
import { storePaths } from '../../src/config.ts';
import { Admission } from '../../src/server/admission.ts';
import { createApp } from '../../src/server/app.ts';
import { buildTile } from '../../src/tile/build-tile.ts';
import type { TileTask } from '../../src/plan/plan-request.ts';
import type { RunningService } from '../../src/service.ts';
import { postContext, startTestService } from '../support/service/http.ts';
import { MONACO_CENTRE, square } from '../support/polygons.ts';

let svc: RunningService;

before(async () => {
  svc = await startTestService();
});
after(async () => {
  await svc?.close();
});

/** A second app on the same accounts and store, with a stand-in pool to control timing and failures. */
async function appWith(
  run: (task: TileTask, opts: { signal: AbortSignal }) => Promise<unknown>,
  admission = new Admission({ maxInFlight: 4, maxQueue: 8, timeoutMs: 10_000 }),
) {
  const server: Server = createApp({
    accounts: svc.accounts,
    admission,
    pipeline: { pool: { run } as unknown as Piscina, storePath: storePaths(svc.config.dataDir).osm, tileSize: 250 },
    maxBodyBytes: 1 << 20,
    gzipLevel: 1,
    log: () => {},
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    close: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  };
}

async function newAccount(balanceKm2: number, active = true) {
  const account = await svc.accounts.createAccount({ name: `t${Math.random()}`, balanceKm2, active });
  return { account, key: (await svc.accounts.createKey(account.id, 'development')).key };
}

const balanceOf = async (id: number) => (await svc.accounts.getAccount(id))!.balanceKm2;

test('402 when the plan is inactive or the balance is too small; nothing is charged', async () => {
  const polygon = square(MONACO_CENTRE[0], MONACO_CENTRE[1], 300);
  const inactive = await newAccount(100, false);
  const r1 = await postContext(svc.url, inactive.key, { polygon });
  assert.equal(r1.status, 402);
  assert.equal(r1.json.code, 'no_active_subscription');
  const poor = await newAccount(0.05);
  const r2 = await postContext(svc.url, poor.key, { polygon });
  assert.equal(r2.status, 402);
  assert.equal(r2.json.code, 'insufficient_balance');
  assert.equal(await balanceOf(poor.account.id), 0.05);
});

test('a completed request is charged its geodesic area; concurrent requests never overspend', async () => {
  const polygon = square(MONACO_CENTRE[0], MONACO_CENTRE[1], 400); // ~0.16 km²
  const { account, key } = await newAccount(0.5);
  const answers = await Promise.all(Array.from({ length: 6 }, () => postContext(svc.url, key, { polygon, settings: { geometry: ['buildings'] } })));
  const ok = answers.filter((a) => a.status === 200).length;
  const refused = answers.filter((a) => a.status === 402 && a.json.code === 'insufficient_balance').length;
  assert.equal(ok + refused, 6);
  assert.equal(ok, 3, 'three 0.16 km² requests fit in 0.5 km²');
  const cost = Number(answers.find((a) => a.status === 200)!.headers['x-cost-km2']);
  assert.ok(Math.abs(cost - 0.16) < 0.005, `cost ${cost}`);
  const balance = await balanceOf(account.id);
  assert.ok(balance >= 0 && Math.abs(balance - (0.5 - 3 * cost)) < 1e-3, `balance ${balance}`);
  const usage = await svc.accounts.usage(account.id);
  assert.equal(usage.filter((u) => u.status === 'completed').length, 3);
});

test('a request aborted mid-stream is not charged and its pending tiles are cancelled', async () => {
  let cancelled = 0;
  const app = await appWith(async (task, { signal }) => {
    try {
      await delay(400, undefined, { signal });
    } catch (e) {
      cancelled++;
      throw e;
    }
    return buildTile(task);
  });
  const { account, key } = await newAccount(10);
  const controller = new AbortController();
  const res = await request(`${app.url}/v1/context`, {
    method: 'POST',
    signal: controller.signal,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ polygon: square(MONACO_CENTRE[0], MONACO_CENTRE[1], 900) }),
  });
  assert.equal(res.statusCode, 200);
  for await (const chunk of res.body) {
    assert.match(String(chunk), /^\{"origin"/);
    break;
  } // first bytes arrive before any tile
  controller.abort();
  await delay(600);
  assert.equal(await balanceOf(account.id), 10);
  const usage = await svc.accounts.usage(account.id);
  assert.equal(usage[0].status, 'aborted');
  assert.equal(usage[0].costKm2, 0);
  assert.ok(cancelled > 0, 'pending tile tasks were cancelled');
  await app.close();
});

test('a tile that fails after streaming began cuts the connection and nothing is charged', async () => {
  let n = 0;
  const app = await appWith(async (task) => {
    await delay(50);
    if (++n === 3) throw new Error('disk on fire');
    return buildTile(task);
  });
  const { account, key } = await newAccount(10);
  const res = await request(`${app.url}/v1/context`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ polygon: square(MONACO_CENTRE[0], MONACO_CENTRE[1], 900) }),
  });
  assert.equal(res.statusCode, 200);
  await assert.rejects(res.body.text(), 'the body must not end as if complete');
  await delay(100);
  assert.equal(await balanceOf(account.id), 10);
  assert.equal((await svc.accounts.usage(account.id))[0].status, 'failed');
  await app.close();
});

test('a saturating burst gets 503 server_busy with Retry-After, uncharged', async () => {
  const app = await appWith(
    async (task) => {
      await delay(300);
      return buildTile(task);
    },
    new Admission({ maxInFlight: 1, maxQueue: 1, timeoutMs: 10_000 }),
  );
  const { account, key } = await newAccount(10);
  const polygon = square(MONACO_CENTRE[0], MONACO_CENTRE[1], 200);
  const answers = await Promise.all(Array.from({ length: 6 }, () => postContext(app.url, key, { polygon })));
  const busy = answers.filter((a) => a.status === 503);
  const ok = answers.filter((a) => a.status === 200);
  assert.ok(busy.length >= 3, `${busy.length} busy`);
  assert.equal(ok.length + busy.length, 6);
  for (const b of busy) {
    assert.equal(b.json.code, 'server_busy');
    assert.ok(Number(b.headers['retry-after']) > 0);
  }
  const charged = (await svc.accounts.usage(account.id)).filter((u) => u.status === 'completed').length;
  assert.equal(charged, ok.length);
  await app.close();
});

test('an answer no configured source has data for is free: recorded at cost 0, X-Cost-Km2 0, and `no_source_data` says why', async () => {
  const { account, key } = await newAccount(1);
  const usage = async () => (await svc.accounts.usage(account.id, { limit: 1 }))[0]!;
  const warned = (a: { json: any }) => a.json.warnings.find((w: { code: string }) => w.code === 'no_source_data');

  // topography only, 0.25 km² far from the bundled DEM (N43E007) and every other configured source
  const outside = await postContext(svc.url, key, { polygon: square(48.85, 2.35, 500), settings: { geometry: ['topography'] } });
  assert.equal(outside.status, 200, outside.text);
  assert.equal(outside.headers['x-cost-km2'], '0.0000');
  assert.deepEqual(warned(outside).details, { charged: false, missing: ['elevation'], swappedLatLon: false });
  assert.match(warned(outside).message, /not charged/);
  assert.deepEqual([(await usage()).status, (await usage()).costKm2], ['completed', 0]);
  assert.equal(await balanceOf(account.id), 1);

  // the default groups with latitude and longitude swapped: far from the OSM data and the DEM
  const swapped = square(MONACO_CENTRE[1], MONACO_CENTRE[0], 300);
  const wrongWay = await postContext(svc.url, key, { polygon: swapped });
  assert.equal(wrongWay.status, 200, wrongWay.text);
  assert.equal(wrongWay.headers['x-cost-km2'], '0.0000');
  assert.equal(warned(wrongWay).details.swappedLatLon, true);
  assert.match(warned(wrongWay).message, /\[latitude, longitude\]/);
  assert.ok(wrongWay.json.warnings.some((w: { code: string }) => w.code === 'osm_unavailable'));
  assert.equal(await balanceOf(account.id), 1);

  // the same groups where the data is: charged as ever, no such warning
  const monaco = await postContext(svc.url, key, { polygon: square(MONACO_CENTRE[0], MONACO_CENTRE[1], 300), settings: { geometry: ['topography'] } });
  assert.equal(monaco.status, 200, monaco.text);
  assert.notEqual(monaco.headers['x-cost-km2'], '0.0000');
  assert.equal(warned(monaco), undefined);
  assert.ok((await usage()).costKm2 > 0.08);
  assert.equal(await balanceOf(account.id), 1 - (await usage()).costKm2);

  // features only, where there is no OSM data: free
  const paris = await postContext(svc.url, key, { polygon: square(48.85, 2.35, 100), settings: { geometry: ['buildings'] } });
  assert.equal(paris.headers['x-cost-km2'], '0.0000');
  assert.deepEqual(warned(paris).details.missing, ['osm']);

  // outside the OSM data but inside the DEM's tile, with topography: the terrain is data, so it is charged
  const offshore = await postContext(svc.url, key, { polygon: square(43.5, 7.5, 100), settings: { geometry: ['buildings', 'topography'] } });
  assert.equal(offshore.status, 200, offshore.text);
  assert.equal(offshore.headers['x-cost-km2'], '0.0100');
  assert.equal(warned(offshore), undefined);
  assert.ok(offshore.json.warnings.some((w: { code: string }) => w.code === 'osm_unavailable'));
});
