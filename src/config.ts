import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import { REPO_ROOT } from './repo-root.ts';
import { exportStoreConfigFromEnv, type ExportStoreConfig } from './export/store/config.ts';
import { exportPoolConfigFromEnv, type ExportPoolConfig } from './export/export-pool.ts';
import { demConfigSchema, type DemSourceConfig } from './sources/dem/config.ts';
import { canopyConfigSchema, type CanopySourceConfig } from './sources/canopy/config.ts';
import { PREMIUM_STORE_FILE, premiumSourcesFromEnv, type PremiumSourceConfig } from './sources/premium/config.ts';
import { httpLimitsFromEnv, type HttpLimits } from './server/http-limits.ts';
import { listenAddressFromEnv } from './server/early-listener.ts';
import { trustedProxiesFromEnv, type TrustedProxies } from './server/trusted-proxies.ts';
import { corsPolicyFromEnv, type CorsPolicy } from './server/cors.ts';
import { logFormatFromEnv, type LogFormat } from './server/log-line.ts';

export { REPO_ROOT };

/** Service configuration; every field can be set from the environment (docs/configuration.md). */
export interface ServiceConfig {
  host: string;
  port: number;
  /** Holds every piece of state: accounts.sqlite, osm.sqlite, demo-key.txt, exports. */
  dataDir: string;
  /** Accounts and ledger on PostgreSQL (CITY_DATABASE_URL, postgres://…); null: `<dataDir>/accounts.sqlite`. */
  databaseUrl: string | null;
  /** How long a node's lease on its reservations lasts without renewal, ms (CITY_LEASE_TTL_MS; src/accounts/postgres-lease.ts). */
  leaseTtlMs: number;
  /** The extract the OSM store is built from on first start when there is no store yet. */
  osmExtract: string;
  /**
   * The OSM store the tiles read (CITY_OSM_STORE): a SQLite file, or postgres://… for the PostGIS
   * store loaded by npm run import-postgis (docs/postgis.md). Default: osm.sqlite in dataDir.
   */
  osmStore: string;
  /** Worker threads for tile generation. */
  workers: number;
  /**
   * V8 young generation of each tile worker, MB (3 × its semi-space, rounded up to a power of two;
   * V8's own default is 48): both semi-spaces stay resident, so larger holds more memory; smaller
   * promotes more and spends more CPU on collections (CITY_WORKER_YOUNG_MB).
   */
  workerYoungGenerationMb: number;
  /**
   * V8 old-generation ceiling of each tile worker, MB (CITY_WORKER_OLD_MB). V8 lets the old
   * generation grow less between full collections under a lower ceiling (at most 1.8× what lived
   * at 1536 MB, 4× from 2048 MB up), so promoted garbage does not pile up in every worker.
   */
  workerOldGenerationMb: number;
  /**
   * Whether V8 may collect garbage on helper threads (parallel scavenges, concurrent marking and
   * sweeping; CITY_BACKGROUND_GC). Off by default when every core runs a tile worker: the helpers
   * then only compete with the workers for the cores (src/service.ts tuneV8).
   */
  backgroundGc: boolean;
  /** Side of a planning tile in metres. */
  tileSize: number;
  /** Requests processed at once; more wait in the queue. */
  maxInFlight: number;
  /** Requests allowed to wait; beyond that the answer is 503 server_busy. */
  maxQueue: number;
  /** Longest wait in the queue before answering 503, ms. */
  queueTimeoutMs: number;
  /** Longest wait in a standing queue as a share of the typical service time (src/server/admission-lane.ts). */
  queueWaitShare: number;
  /** Requests of at least this many km², and every export, are admitted as large (src/server/admission.ts). */
  largeRequestKm2: number;
  /** Slots large requests never take, kept for small ones; null = a quarter of maxInFlight, at least 1. */
  smallRequestSlots: number | null;
  /** Largest accepted request body, bytes (413 beyond). */
  maxBodyBytes: number;
  /** gzip level for responses to clients that accept it (1 = fastest). */
  gzipLevel: number;
  /** Time each worker spends at start building tiles of the store so its code is loaded and warm, ms (0 = none). */
  warmUpMs: number;
  /** Then the time spent running whole discarded requests through the pool (pipeline/warm-up-requests.ts), ms (0 = none). */
  warmUpRequestsMs: number;
  /** Elevation sources (CITY_DEM_SOURCES, a JSON array; see src/sources/dem/config.ts); null = the bundled SRTM tile. */
  dem: DemSourceConfig[] | null;
  /** Canopy height models for treeSource hybrid/canopy (CITY_CANOPY_SOURCES, a JSON array; src/sources/canopy/config.ts); null = none. */
  canopy: CanopySourceConfig[] | null;
  /**
   * The ground cache (docs/ground.md "The ground cache"): its SQLite file (CITY_GROUND_CACHE:
   * unset or `off` = none, `on` = <data dir>/ground-cache.sqlite, else the file) and the bound on
   * its size (CITY_GROUND_CACHE_MB, default 2048).
   */
  groundCache: { path: string; maxBytes: number } | null;
  /** Premium building datasets imported at start when the store lacks them (CITY_PREMIUM_SOURCES; src/sources/premium/config.ts); unset = the bundled samples. */
  premiumSources: PremiumSourceConfig[];
  /** Export files: local dir or S3, lifetime, size cap, public base URL (CITY_EXPORT_*, CITY_PUBLIC_BASE_URL). */
  exports: ExportStoreConfig;
  /** The export writers' threads: how many, and how long one may idle before it exits (CITY_EXPORT_THREADS, CITY_EXPORT_IDLE_MS). */
  exportPool: ExportPoolConfig;
  /** Slow readers, idle sockets, timeouts, connection cap (CITY_SLOW_READER_TIMEOUT_MS etc.; src/server/http-limits.ts). */
  http: HttpLimits;
  /** Reverse proxies whose X-Forwarded-Host/-Proto are believed and whose connections are not capped per address (CITY_TRUSTED_PROXIES). */
  trustedProxies: TrustedProxies;
  /** Browser origins allowed to call the API (CITY_CORS_ORIGINS; none by default). */
  cors: CorsPolicy;
  /** A MapLibre style drawn under the page's own map layers (CITY_MAP_STYLE_URL; none by default: the page needs no internet). */
  mapStyleUrl: string | null;
  /** The bundled web page (dist/web, written by `npm run build`). */
  webAssetsDir: string;
  /** On SIGTERM/SIGINT, how long requests in progress may take to finish before they are cut, ms (CITY_SHUTDOWN_GRACE_MS). */
  shutdownGraceMs: number;
  /** `text` (default: lines as written, request lines as JSON) or `json` (every line a JSON object): CITY_LOG_FORMAT. */
  logFormat: LogFormat;
}

/** Default of CITY_WORKER_YOUNG_MB (docs/configuration.md; the measurements: docs/performance.md). */
export const WORKER_YOUNG_GENERATION_MB = 48;
/** Default of CITY_WORKER_OLD_MB. */
export const WORKER_OLD_GENERATION_MB = 1536;

function int(value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isFinite(n)) throw new Error(`not a number: ${value}`);
  return Math.floor(n);
}

/** A positive number from the environment, or undefined when unset; anything else throws. */
function positive(value: string | undefined, name: string): number | undefined {
  if (value === undefined || value === '') return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${name} must be a positive number, not ${value}`);
  return n;
}

function mapStyleUrlFromEnv(value: string | undefined): string | null {
  if (!value) return null;
  if (!/^https?:\/\//.test(value)) throw new Error(`CITY_MAP_STYLE_URL must be an http(s) URL, not ${value}`);
  return new URL(value).href;
}

/** A postgres:// URL stays as it is; a file path is resolved; unset: osm.sqlite in the data directory. */
function osmStoreFromEnv(value: string | undefined, dataDir: string): string {
  if (!value) return join(dataDir, 'osm.sqlite');
  return /^postgres(ql)?:\/\//i.test(value) ? value : resolve(value);
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): ServiceConfig {
  const dataDir = resolve(env.CITY_DATA_DIR || './var');
  const workers = Math.max(1, int(env.CITY_WORKERS, availableParallelism()));
  return {
    ...listenAddressFromEnv(env),
    dataDir,
    databaseUrl: env.CITY_DATABASE_URL || null,
    leaseTtlMs: Math.max(300, int(env.CITY_LEASE_TTL_MS, 15_000)),
    osmExtract: resolve(env.CITY_OSM_EXTRACT || join(REPO_ROOT, 'data/monaco/monaco.osm.pbf')),
    osmStore: osmStoreFromEnv(env.CITY_OSM_STORE, dataDir),
    workers,
    workerYoungGenerationMb: Math.max(16, int(env.CITY_WORKER_YOUNG_MB, WORKER_YOUNG_GENERATION_MB)),
    workerOldGenerationMb: Math.max(128, int(env.CITY_WORKER_OLD_MB, WORKER_OLD_GENERATION_MB)),
    backgroundGc: env.CITY_BACKGROUND_GC ? env.CITY_BACKGROUND_GC !== '0' : workers < availableParallelism(),
    tileSize: int(env.CITY_TILE_SIZE, 500),
    maxInFlight: Math.max(1, int(env.CITY_MAX_IN_FLIGHT, Math.max(2, workers))),
    maxQueue: Math.max(0, int(env.CITY_MAX_QUEUE, 16)),
    queueTimeoutMs: int(env.CITY_QUEUE_TIMEOUT_MS, 30_000),
    queueWaitShare: Math.max(0, Number(env.CITY_QUEUE_WAIT_SHARE ?? 0.25) || 0),
    largeRequestKm2: positive(env.CITY_LARGE_REQUEST_KM2, 'CITY_LARGE_REQUEST_KM2') ?? 1,
    smallRequestSlots: env.CITY_SMALL_REQUEST_SLOTS ? Math.max(0, int(env.CITY_SMALL_REQUEST_SLOTS, 0)) : null,
    maxBodyBytes: int(env.CITY_MAX_BODY_BYTES, 5 * 1024 * 1024),
    gzipLevel: int(env.CITY_GZIP_LEVEL, 1),
    warmUpMs: Math.max(0, int(env.CITY_WARMUP_MS, 1000)), // = WARM_UP_DEFAULTS.budgetMs (tile/warm-up.ts)
    warmUpRequestsMs: Math.max(0, int(env.CITY_WARMUP_REQUESTS_MS, 6_000)),
    dem: env.CITY_DEM_SOURCES ? demConfigSchema.parse(JSON.parse(env.CITY_DEM_SOURCES)) : null,
    canopy: env.CITY_CANOPY_SOURCES ? canopyConfigSchema.parse(JSON.parse(env.CITY_CANOPY_SOURCES)) : null,
    // opt-in until a cached piece that sends the meshing into an endless loop (the dense city's
    // tile 9, docs/ground.md "The ground cache") is found and fixed
    groundCache:
      !env.CITY_GROUND_CACHE || env.CITY_GROUND_CACHE === 'off'
        ? null
        : {
            path: resolve(env.CITY_GROUND_CACHE === 'on' ? join(dataDir, 'ground-cache.sqlite') : env.CITY_GROUND_CACHE),
            maxBytes: int(env.CITY_GROUND_CACHE_MB, 2048) * 1024 * 1024,
          },
    premiumSources: premiumSourcesFromEnv(env.CITY_PREMIUM_SOURCES),
    exports: exportStoreConfigFromEnv(env, dataDir),
    exportPool: exportPoolConfigFromEnv(env),
    http: httpLimitsFromEnv(env),
    trustedProxies: trustedProxiesFromEnv(env),
    cors: corsPolicyFromEnv(env),
    mapStyleUrl: mapStyleUrlFromEnv(env.CITY_MAP_STYLE_URL),
    webAssetsDir: join(REPO_ROOT, 'dist/web'),
    shutdownGraceMs: Math.max(0, int(env.CITY_SHUTDOWN_GRACE_MS, 25_000)),
    logFormat: logFormatFromEnv(env.CITY_LOG_FORMAT),
  };
}

export const storePaths = (dataDir: string) => ({
  accounts: join(dataDir, 'accounts.sqlite'),
  osm: join(dataDir, 'osm.sqlite'),
  premium: join(dataDir, PREMIUM_STORE_FILE),
  demoKey: join(dataDir, 'demo-key.txt'),
});
