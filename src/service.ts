import { isPostgresStore } from './sources/osm/postgis/postgis-store.ts';
import { existsSync, mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { Piscina } from 'piscina';
import { ensureDemoAccount, openAccountStore, type AccountStore, type DemoAccount } from './accounts/index.ts';
import { storePaths, type ServiceConfig } from './config.ts';
import { Admission } from './server/admission.ts';
import { Readiness } from './server/readiness.ts';
import { embeddedChecks } from './server/dependency-checks.ts';
import { RequestDrain } from './server/drain.ts';
import { ServiceMetrics } from './server/metrics.ts';
import type { EarlyListener } from './server/early-listener.ts';
import type { PipelineDeps } from './pipeline/run-request.ts';
import { createApp } from './server/app.ts';
import { openExportStore } from './export/store/open.ts';
import type { ExportStore } from './export/store/types.ts';
import { warmUpRequests } from './pipeline/warm-up-requests.ts';
import { MODULE_EXT } from './module-ext.ts';
import { createExportPool } from './export/export-pool.ts';
import { importOsm, type ImportProgress } from './sources/osm/import.ts';
import { storeIsCurrent } from './sources/osm/store.ts';
import { importPremiumSources } from './sources/premium/config.ts';
import { premiumDatasetsAt } from './sources/premium/request-reads.ts';

export interface RunningService {
  url: string;
  config: ServiceConfig;
  accounts: AccountStore;
  pool: Piscina;
  /** The export writers' threads (started on demand, exit when idle). */
  exportPool: Piscina;
  /** Finished export files (tests put files here directly). */
  exports: ExportStore;
  /** Set on the first start of an empty data directory. */
  demo: DemoAccount | null;
  /** What GET /metrics reports. */
  metrics: ServiceMetrics;
  /** Settles when the start-up behind the listening server is over (rejects when it failed). */
  ready: Promise<void>;
  /**
   * Stops gracefully: no new connections, /readyz 503, requests in progress get up to `graceMs`
   * to finish; then the rest are cut (their reservations released, or refunded when already
   * charged), and the pools and stores close.
   */
  shutdown(graceMs: number): Promise<void>;
  /** {@link shutdown} without a grace period. */
  close(): Promise<void>;
}

/**
 * Starts the whole service on one box and listens at once (or takes over `early`, the server
 * src/main.ts listens on before it loads this code): opens the accounts (creating a demo account on
 * a fresh install) and the export store, starts the tile workers, listens, and then,
 * behind `/readyz` ({@link RunningService.ready}), builds the OSM store from the configured extract
 * when there is none and warms the workers up (server/readiness.ts says what a request meanwhile
 * waits for).
 */
export async function startService(config: ServiceConfig, log: (line: string) => void = console.log, early?: EarlyListener): Promise<RunningService> {
  // Accounts, key hashes and the demo key live here: the service's user only.
  mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
  const paths = storePaths(config.dataDir);
  // Opened without its own clean-up so that this one call does it and its count is logged; a
  // neighbour that dies while this one runs has its holds released by the periodic sweep.
  const accounts = await openAccountStore(
    { databaseUrl: config.databaseUrl, sqlitePath: paths.accounts },
    {
      releaseStale: false,
      leaseTtlMs: config.leaseTtlMs,
      onStaleReleased: (n) => log(`Released ${n} reservation(s) held by a process that is gone (not charged).`),
    },
  );
  const stale = await accounts.releaseStaleReservations();
  if (stale > 0) log(`Released ${stale} reservation(s) held by processes that are gone (not charged).`);
  const demo = await ensureDemoAccount(accounts, config.dataDir);
  // Before the workers start, so a misconfigured bucket fails fast; sweeps now, then on a timer.
  const exports = await openExportStore(config.exports, log);

  // The threads start loading their code now, while the main thread goes on to listen.
  const pool = createTilePool(config);
  const exportPool = createExportPool(config.exportPool);
  const metrics = new ServiceMetrics({ processMetrics: true });
  const pipeline = {
    pool,
    exportPool,
    storePath: config.osmStore,
    premiumStorePath: paths.premium,
    tileSize: config.tileSize,
    dem: config.dem,
    canopy: config.canopy,
    groundCache: config.groundCache,
  };
  const drain = new RequestDrain();
  const admission = new Admission({
    maxInFlight: config.maxInFlight,
    maxQueue: config.maxQueue,
    timeoutMs: config.queueTimeoutMs,
    waitShare: config.queueWaitShare,
    largeKm2: config.largeRequestKm2,
    smallSlots: config.smallRequestSlots ?? undefined,
  });
  const readiness = new Readiness();
  const server = createApp(
    {
      accounts,
      admission,
      maxBodyBytes: config.maxBodyBytes,
      gzipLevel: config.gzipLevel,
      exports: { store: exports, publicBaseUrl: config.exports.publicBaseUrl },
      limits: config.http,
      trustedProxies: config.trustedProxies,
      cors: config.cors,
      web: { assetsDir: config.webAssetsDir, storePath: paths.osm, premiumPath: paths.premium, demoKeyFile: paths.demoKey, mapStyleUrl: config.mapStyleUrl },
      readiness,
      log,
      metrics,
      checks: embeddedChecks({ accounts, osmStorePath: config.osmStore, exports }),
      drain,
      pipeline: { ...pipeline, tileTimings: (timings) => metrics.tile(timings) },
    },
    early,
  );
  if (!early)
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(config.port, config.host, () => resolve());
    });
  const closing = new AbortController();
  const ready = warmUp(config, pipeline, readiness, closing.signal, log);
  const stop = async (graceMs: number): Promise<void> => {
    closing.abort(new Error('the service is closing'));
    readiness.markDraining();
    drain.begin();
    server.close(); // no new connections from here on
    // Kept-alive connections get no new request: closed when idle, and each response now closes its own.
    server.closeIdleConnections();
    const idle = setInterval(() => server.closeIdleConnections(), IDLE_SWEEP_MS);
    if (drain.active > 0) log(`Shutdown: waiting up to ${graceMs} ms for ${drain.active} request(s) in progress.`);
    const finished = await drain.settled(graceMs);
    clearInterval(idle);
    if (!finished) log(`Shutdown: ${drain.active} request(s) still running after ${graceMs} ms are cut (not charged).`);
    server.closeAllConnections();
    // A cut request's handler releases or refunds its reservation on its way out.
    if (!(await drain.settled(CUT_SETTLE_MS))) log(`Shutdown: ${drain.active} request(s) did not end; their reservations lapse with this process's lease.`);
    // An import still running keeps writing its temporary file: let it finish or fail first.
    await ready.catch(() => {});
    await Promise.all([pool.destroy(), exportPool.destroy()]);
    await exports.close();
    await accounts.close();
  };
  let stopping: Promise<void> | null = null;
  const shutdown = (graceMs: number) => (stopping ??= stop(graceMs));
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${host}:${address.port}`,
    config,
    accounts,
    pool,
    exportPool,
    exports,
    demo,
    metrics,
    ready,
    shutdown,
    close: () => shutdown(0),
  };
}

/** How often, while draining, connections that went idle are closed, ms. */
const IDLE_SWEEP_MS = 100;
/** How long cut requests get to release their reservations before the stores close, ms. */
const CUT_SETTLE_MS = 10_000;

/**
 * The tile workers' pool, with V8 tuned for them (process-wide flags: set once, before the threads
 * start). The service and the command line's in-process runs share it.
 */
export function createTilePool(config: ServiceConfig): Piscina {
  tuneV8(config.backgroundGc);
  return new Piscina({
    filename: new URL(`../workers/tile-worker${MODULE_EXT}`, import.meta.url).href,
    minThreads: config.workers,
    maxThreads: config.workers,
    idleTimeout: 60_000,
    // Tile work allocates many short-lived arrays (Clipper paths, mesh buffers): the young
    // generation's two semi-spaces stay resident in every worker, so they are kept small, and the
    // old generation's ceiling keeps V8 from letting promoted garbage pile up (config.ts).
    resourceLimits: { maxYoungGenerationSizeMb: config.workerYoungGenerationMb, maxOldGenerationSizeMb: config.workerOldGenerationMb },
  });
}

/**
 * Builds the OSM store from the configured extract when the data directory has none (or one an
 * older version built); false when it was there already.
 */
export async function ensureOsmStore(config: ServiceConfig, log: (line: string) => void, onProgress?: (p: ImportProgress) => void): Promise<boolean> {
  const storePath = config.osmStore;
  // a PostGIS store is loaded by its own command (npm run import-postgis), never at start
  if (isPostgresStore(storePath) || storeIsCurrent(storePath)) return false;
  mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
  log(`Building the OSM store from ${config.osmExtract} (${existsSync(storePath) ? 'the store was built by an older version' : 'first start'})…`);
  const t0 = performance.now();
  await importOsm(config.osmExtract, storePath, { onProgress });
  log(`OSM store ready in ${((performance.now() - t0) / 1000).toFixed(1)} s: ${storePath}`);
  return true;
}

/** The configured premium datasets (CITY_PREMIUM_SOURCES) the premium store does not hold yet. */
export function missingPremiumSources(config: ServiceConfig): string[] {
  const present = new Set(premiumDatasetsAt(storePaths(config.dataDir).premium).map((d) => d.id));
  return config.premiumSources.map((s) => s.id).filter((id) => !present.has(id));
}

/**
 * Behind the listening server: the OSM store if there is none, the configured premium datasets the
 * premium store lacks (CITY_PREMIUM_SOURCES), then every worker loads its code,
 * opens the store and warms its hot code on tiles (requests wait until here), then whole discarded
 * requests until the code has settled, the budget is spent or a real request arrives.
 */
async function warmUp(config: ServiceConfig, pipeline: PipelineDeps, readiness: Readiness, closing: AbortSignal, log: (line: string) => void): Promise<void> {
  const started = performance.now();
  try {
    if (!isPostgresStore(pipeline.storePath) && !storeIsCurrent(pipeline.storePath)) {
      readiness.enter('building the OSM store');
      await ensureOsmStore(config, log);
    }
    if (closing.aborted) return;
    if (missingPremiumSources(config).length > 0) {
      readiness.enter('importing premium building datasets');
      await importPremiumSources(config.premiumSources, config.dataDir, log);
    }
    if (closing.aborted) return;
    readiness.enter('starting the workers');
    const task = { storePath: pipeline.storePath, budgetMs: config.warmUpMs };
    const warmed = await Promise.all(
      Array.from({ length: config.workers }, () => pipeline.pool.run(task, { name: 'warmup' }) as Promise<{ threadId: number; meshes: number; ms: number }>),
    );
    log(`Workers warmed up: ${warmed.map((w) => `thread ${w.threadId} ${w.meshes} meshes in ${w.ms.toFixed(0)} ms`).join(', ')}`);
    readiness.servable();
    if (config.warmUpRequestsMs > 0 && !closing.aborted) {
      readiness.enter('warming up on whole requests');
      const t = performance.now();
      const stop = AbortSignal.any([closing, readiness.trafficSignal, AbortSignal.timeout(config.warmUpRequestsMs)]);
      const runs = await warmUpRequests(pipeline, { budgetMs: config.warmUpRequestsMs, sideMetres: 3000, stop });
      const why = readiness.trafficSignal.aborted ? ', cut short by the first request' : '';
      log(`Warmed up on ${runs} whole requests in ${(performance.now() - t).toFixed(0)} ms${why}`);
    }
    readiness.markReady();
    log(`Ready ${((performance.now() - started) / 1000).toFixed(1)} s after listening`);
  } catch (err) {
    readiness.fail(err as Error);
    if (closing.aborted) return;
    throw err;
  }
}
/**
 * TurboFan does not inline the array builtins (map, filter, forEach, …): an inlined `map` returns
 * a holey array where the builtin returns a packed one, so every function that receives arrays met
 * a new elements kind each time the function making them was optimised or deoptimised — after
 * every full collection — deoptimised in turn, and the cascade kept V8's compiler threads busy
 * for 0.2–0.4 CPU-s of every warm default request. Without it the monaco-region-2016 ground
 * (surface, barriers, instances, in one thread) costs 1.50–1.58 instead of 1.70 CPU-s, compiler
 * threads 0.08 instead of 0.19, and the tile code runs no slower (dense city buildings 0.36–0.38
 * CPU-s either way).
 */
const JIT_FLAGS_OFF = ['turbo-inline-array-builtins'];

/**
 * V8 flags are process-wide, so these apply to every thread (the JIT flag above too).
 * Allocation-site pretenuring is off: with the tile workers' small semi-spaces, data that lives for one tile survives two scavenges,
 * V8 then allocated such sites straight into the old generation, and the garbage they left there
 * cost full collections (monaco-region-2016 default request in one thread: 2.2–2.5 → 1.9–2.1
 * CPU-s). Without background GC every thread collects its own garbage: with a tile worker on every
 * core, V8's helper threads for parallel scavenges and concurrent marking and sweeping only took
 * cores from the workers (region default request 2.6–2.8 → 2.3–2.5 CPU-s, measured per thread).
 * Parallel marking stays: it only runs inside the final pause, and turning it off while a thread
 * is marking would skip joining its helpers.
 */
function tuneV8(backgroundGc: boolean): void {
  const off = ['allocation-site-pretenuring', ...JIT_FLAGS_OFF];
  if (!backgroundGc)
    off.push(
      'parallel-scavenge',
      'concurrent-marking',
      'concurrent-sweeping',
      'concurrent-array-buffer-sweeping',
      'parallel-compaction',
      'parallel-pointer-update',
    );
  for (const flag of off) setFlagsFromString(`--no-${flag}`);
}
