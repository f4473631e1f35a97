/**
 * `npm run soak`: overloads the service (started as `npm start`, Monaco sample) about 10× for a
 * while with well-behaved clients, mixed with slow readers (stalled ones, and steady ones reading
 * a ~15 MB answer at 250 KB/s to its end), clients that abort mid-stream and idle sockets, and reports: p50/p99 of served requests against the unloaded figure,
 * the 503 share, peak RSS, and the ledger of the soak account (charged = sum of completed
 * requests, nothing held afterwards). Exits 1 when a target is missed.
 *
 *   npm run soak                    # 60 s
 *   npm run soak -- --seconds 20
 *   npm run soak -- --export-seconds 0   # without the export-load mix (default 30 s)
 *
 * Then the export-load mix (soak-exports.ts): big exports running while 0.1 km² requests are timed.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { setTimeout as delay } from 'node:timers/promises';
import { Agent, request } from 'undici';
import { SqliteAccountStore } from '../../src/accounts/index.ts';
import { REPO_ROOT, storePaths } from '../../src/config.ts';
import { square } from '../../test/support/polygons.ts';
import { startServer } from '../../test/support/service/compiled-server.ts';
import { rssMb } from '../../test/support/service/proc.ts';
import { aborter, goodClient, idleSocket, newTally, quantile, slowReader, steadyReader } from './soak-clients.ts';
import { exportLoadMix, type ExportMixReport } from './soak-exports.ts';

const { values } = parseArgs({
  options: { seconds: { type: 'string', default: '60' }, overload: { type: 'string', default: '10' }, 'export-seconds': { type: 'string', default: '30' } },
});
const seconds = Number(values.seconds);
const MAX_IN_FLIGHT = 2;

const dataDir = mkdtempSync(join(tmpdir(), 'cc-soak-'));
Object.assign(process.env, {
  CITY_WORKERS: process.env.CITY_WORKERS ?? '2',
  CITY_MAX_IN_FLIGHT: String(MAX_IN_FLIGHT),
  // short, so stalled readers are cut within the soak; long enough for a 250 KB/s reader, which the
  // kernel takes from the process a third of a 4 MB send buffer (~6 s) at a time
  CITY_SLOW_READER_TIMEOUT_MS: process.env.CITY_SLOW_READER_TIMEOUT_MS ?? '15000',
  CITY_WARMUP_REQUESTS_MS: '0',
  // Every simulated client connects from loopback: the per-address cap would count them as one.
  CITY_MAX_CONNECTIONS_PER_ADDRESS: process.env.CITY_MAX_CONNECTIONS_PER_ADDRESS ?? '512',
});
console.log(`Starting the service on ${dataDir} …`);
const server = await startServer(dataDir, join(REPO_ROOT, 'data/monaco/monaco.osm.pbf'));
let exitCode = 1;
try {
  const accounts = await SqliteAccountStore.open(storePaths(dataDir).accounts, { releaseStale: false });
  const START_KM2 = 10_000;
  const account = await accounts.createAccount({ name: 'soak', balanceKm2: START_KM2 });
  const key = (await accounts.createKey(account.id, 'production')).key;
  const body = JSON.stringify({ polygon: square(43.7335, 7.4195, 400), settings: { geometry: ['buildings', 'barriers'] } });
  // Slow readers ask for an answer larger than the socket buffers (several MB of buildings).
  const bigBody = JSON.stringify({ polygon: square(43.7335, 7.4195, 1500), settings: { geometry: ['buildings'] } });
  // Steady readers: ~15 MB (a 3 km square of the sample, every group) read at 250 KB/s (2 Mbit/s).
  const steadyBody = JSON.stringify({
    polygon: square(43.7335, 7.4195, 3000),
    settings: { geometry: ['buildings', 'surface', 'barriers', 'instances', 'topography'] },
  });
  const STEADY_RATE = 250_000;

  // Unloaded: one request at a time.
  const unloaded: number[] = [];
  for (let i = 0; i < 23; i++) {
    const t = performance.now();
    const res = await request(`${server.base}/v1/context`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body,
    });
    await res.body.text();
    if (i >= 3) unloaded.push(performance.now() - t); // the first three warm the workers
  }
  const unloadedP99 = quantile(unloaded, 0.99);
  console.log(`Unloaded: p50 ${quantile(unloaded, 0.5).toFixed(0)} ms, p99 ${unloadedP99.toFixed(0)} ms`);

  const tally = newTally();
  let peakRss = 0;
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, rssMb(server.pid));
  }, 250);
  // Steady readers first: their answers are computed before the overload starts (two ~10 s requests
  // would otherwise take both slots, which the served p99 is not about), then read during it; the
  // slots are free again once the work is done, whatever the readers' pace.
  const steady = Array.from({ length: 2 }, () =>
    steadyReader({ base: server.base, key, body: steadyBody, until: Date.now() + 120_000 }, steadyBody, STEADY_RATE, tally),
  );
  await delay(500);
  const inFlight = async () => ((await (await request(`${server.base}/healthz`)).body.json()) as { inFlight: number }).inFlight;
  while ((await inFlight()) > 0) await delay(200);
  const until = Date.now() + seconds * 1000;
  const target = { base: server.base, key, body, until };
  const good = Number(values.overload) * MAX_IN_FLIGHT;
  const agent = new Agent({ connections: good });
  console.log(`Admission: ${MAX_IN_FLIGHT} in flight, queue ${process.env.CITY_MAX_QUEUE ?? '16 (default)'}`);
  console.log(`Soaking for ${seconds} s: ${good} clients, 2 slow readers, 2 steady 250 KB/s readers, 2 aborting clients, 50 idle sockets …`);
  await Promise.all([
    ...Array.from({ length: good }, () => goodClient(target, agent, tally)),
    ...Array.from({ length: 2 }, () => slowReader(target, bigBody, tally)),
    ...steady,
    ...Array.from({ length: 2 }, () => aborter(target, tally)),
    ...Array.from({ length: 50 }, () => idleSocket(target, tally)),
  ]);
  await agent.close();
  const exportSeconds = Number(values['export-seconds']);
  let exportMix: ExportMixReport | null = null;
  if (exportSeconds > 0) {
    console.log(`Export load for ${exportSeconds} s: 3 clients exporting ~2 km² GLBs back to back, one timing 0.1 km² requests …`);
    exportMix = await exportLoadMix(server.base, key, exportSeconds);
  }
  clearInterval(sampler);
  // Let the last responses settle (cut slow readers, the delivery window), then read the ledger.
  await delay(5000);
  const rows = await accounts.usage(account.id, { limit: 1_000_000 });
  const after = (await accounts.getAccount(account.id))!;
  const completed = rows.filter((r) => r.status === 'completed');
  const chargedM2 = Math.round((START_KM2 - after.balanceKm2) * 1e6);
  const completedM2 = completed.reduce((s, r) => s + Math.round(r.costKm2 * 1e6), 0);
  const byStatus: Record<string, number> = {};
  for (const r of rows) byStatus[r.status] = (byStatus[r.status] ?? 0) + 1;
  await accounts.close();

  const served = tally.served;
  const p50 = quantile(served, 0.5),
    p99 = quantile(served, 0.99);
  const answered = served.length + tally.busy;
  const report = {
    seconds,
    unloadedMs: { p50: quantile(unloaded, 0.5), p99: unloadedP99 },
    servedMs: { count: served.length, p50, p99 },
    busyShare: answered ? tally.busy / answered : 0,
    other: tally.other,
    slowReaders: tally.slowReaders,
    steadyReaders: tally.steady,
    aborts: tally.aborts,
    idleSocketsOpened: tally.idleSockets,
    peakRssMb: peakRss,
    exportMix,
    ledger: { rows: rows.length, byStatus, chargedKm2: chargedM2 / 1e6, completedKm2: completedM2 / 1e6, heldKm2: after.reservedKm2 },
  };
  console.log(JSON.stringify(report, null, 2));
  const checks = {
    'p99 served ≤ 2× unloaded': p99 <= 2 * unloadedP99,
    'RSS ≤ 1 GB': peakRss <= 1024,
    'ledger exact (charged = completed, nothing held)': chargedM2 === completedM2 && after.reservedKm2 === 0 && !byStatus.reserved,
    'every well-behaved 200 charged': completed.length >= served.length,
    'every steady 250 KB/s reader got its whole answer': tally.steady.cut === 0 && tally.steady.completed === 2,
    ...(exportMix ? { '0.1 km² p99 ≤ 1 s while big exports run': exportMix.smallMs.p99 <= 1000 } : {}),
  };
  for (const [what, ok] of Object.entries(checks)) console.log(`${ok ? 'ok  ' : 'MISS'} ${what}`);
  exitCode = Object.values(checks).every(Boolean) ? 0 : 1;
} finally {
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
process.exitCode = exitCode;
