/**
 * `GET /metrics` (Prometheus text, prom-client): what an operator graphs and alerts on. One
 * registry per app, not prom-client's global one, so several apps in one process (the tests) do
 * not share counters. Labels never carry anything a client sent except through a fixed set
 * (route, method, status, error code): no path with a download token, no key, no account.
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** What the gauges read when scraped: admission control and the tile pool. */
export interface LoadGauges {
  /** Requests admitted and running. */
  inFlight(): number;
  /** Requests waiting for admission. */
  queued(): number;
  /** Tiles waiting for a worker (every request's queue and the pool's own). */
  tilesWaiting(): number;
  /** Tiles running on the workers. */
  tilesRunning(): number;
}

/** The routes requests are counted by; anything else is `other` (a path never becomes a label). */
export type Route = '/v1/context' | '/v1/openapi.json' | '/v1/exports/{token}/{name}' | '/healthz' | '/readyz' | '/metrics' | 'other';

const SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];
const TILE_SECONDS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export class ServiceMetrics {
  readonly registry = new Registry();
  readonly #requests: Counter<'route' | 'method' | 'status' | 'code'>;
  readonly #latency: Histogram<'route' | 'status'>;
  readonly #tileStages: Histogram<'family'>;
  readonly #km2: Counter<'event'>;
  readonly #exportBytes: Counter;
  readonly #exports: Counter;
  #load: LoadGauges | null = null;

  /** With `processMetrics`, prom-client's default process metrics too (CPU, memory, event loop, GC): once per process. */
  constructor(options: { processMetrics?: boolean } = {}) {
    const registers = [this.registry];
    if (options.processMetrics) collectDefaultMetrics({ register: this.registry });
    this.#requests = new Counter({
      name: 'city_http_requests_total',
      help: 'HTTP requests answered, by route, method, status and error code ("" for none; "incomplete" when the response was cut).',
      labelNames: ['route', 'method', 'status', 'code'],
      registers,
    });
    this.#latency = new Histogram({
      name: 'city_http_request_duration_seconds',
      help: 'Time from the request to its last byte handed to the socket (or to the connection closing), seconds.',
      labelNames: ['route', 'status'],
      buckets: SECONDS,
      registers,
    });
    this.#tileStages = new Histogram({
      name: 'city_tile_build_seconds',
      help: "Worker time of one tile for one feature family (the tile result's timings, summed by family), seconds.",
      labelNames: ['family'],
      buckets: TILE_SECONDS,
      registers,
    });
    this.#km2 = new Counter({
      name: 'city_km2_total',
      help: 'Square kilometres by ledger event: reserved when work starts, charged when the answer is handed over, released (failed or aborted, uncharged), refunded (charged, then the delivery failed).',
      labelNames: ['event'],
      registers,
    });
    this.#exportBytes = new Counter({ name: 'city_export_bytes_stored_total', help: 'Bytes of export files written to the export store.', registers });
    this.#exports = new Counter({ name: 'city_exports_stored_total', help: 'Export files written to the export store.', registers });
    const gauge = (name: string, help: string, read: (g: LoadGauges) => number) =>
      new Gauge({
        name,
        help,
        registers,
        collect: (() => {
          const metrics = this;
          return function (this: Gauge) {
            this.set(metrics.#load ? read(metrics.#load) : 0);
          };
        })(),
      });
    gauge('city_requests_in_flight', 'Requests admitted and running.', (g) => g.inFlight());
    gauge('city_requests_queued', 'Requests waiting for admission.', (g) => g.queued());
    gauge('city_tile_pool_queue_length', 'Tiles waiting for a worker thread.', (g) => g.tilesWaiting());
    gauge('city_tile_pool_running', 'Tiles running on the worker threads.', (g) => g.tilesRunning());
  }

  /** Where the gauges read from (the app's admission and tile pool). */
  watch(load: LoadGauges): void {
    this.#load = load;
  }

  request(route: Route, method: string, status: number, code: string, seconds: number): void {
    const m = KNOWN_METHODS.has(method) ? method : 'other';
    this.#requests.inc({ route, method: m, status: String(status), code });
    this.#latency.observe({ route, status: String(status) }, seconds);
  }

  /** One tile's `timings` (ms by stage), observed once per family. */
  tile(timings: Record<string, number>): void {
    const byFamily = new Map<string, number>();
    for (const [stage, ms] of Object.entries(timings)) {
      const family = familyOfStage(stage);
      byFamily.set(family, (byFamily.get(family) ?? 0) + ms);
    }
    for (const [family, ms] of byFamily) this.#tileStages.observe({ family }, ms / 1000);
  }

  km2(event: 'reserved' | 'charged' | 'released' | 'refunded', km2: number): void {
    if (km2 > 0) this.#km2.inc({ event }, km2);
  }

  exportStored(bytes: number): void {
    this.#exports.inc();
    this.#exportBytes.inc(bytes);
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  text(): Promise<string> {
    return this.registry.metrics();
  }
}

const KNOWN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS', 'PATCH']);

/**
 * The family a timing stage belongs to, by the names the families give their stages
 * (src/features/*, src/tile/build-tile.ts); a stage no family claims is `other`.
 */
export function familyOfStage(stage: string): string {
  if (stage.startsWith('surface')) return 'surface';
  if (stage.startsWith('instances')) return 'instances';
  if (stage.startsWith('barriers')) return 'barriers';
  if (stage.startsWith('terrain') || stage === 'merge') return 'topography';
  if (stage === 'build' || stage === 'crop' || stage === 'encode') return 'buildings';
  return 'other';
}

/** The route label of a path. */
export function routeOf(path: string, isDownload: boolean): Route {
  if (isDownload) return '/v1/exports/{token}/{name}';
  switch (path) {
    case '/v1/context':
    case '/v1/openapi.json':
    case '/healthz':
    case '/readyz':
    case '/metrics':
      return path;
    default:
      return 'other';
  }
}
