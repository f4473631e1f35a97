import type { IncomingMessage, ServerResponse, Server } from 'node:http';
import type { Socket } from 'node:net';
import { ApiError } from '../contract/errors.ts';
import { buildOpenApiDocument } from '../contract/openapi.ts';
import { BodyBudget, declaredTooLarge, discardBody } from './body.ts';
import { answerClientError, answerConnect } from './client-error.ts';
import { handleContext, type ContextDeps } from './context-handler.ts';
import { CorsPolicy } from './cors.ts';
import { endDeliveryWatch } from './delivery.ts';
import { DOWNLOAD_PATH, handleDownload } from './download-handler.ts';
import type { EarlyListener } from './early-listener.ts';
import type { ExportDeps } from './export-handler.ts';
import { HTTP_LIMIT_DEFAULTS } from './http-limits.ts';
import { checkBeforeContinue, createHttpServer } from './http-server.ts';
import { Readiness } from './readiness.ts';
import { noteRequest, trackRequest } from './access-log.ts';
import { failingChecks, type DependencyCheck } from './dependency-checks.ts';
import type { RequestDrain } from './drain.ts';
import { routeOf, ServiceMetrics } from './metrics.ts';
import { schedulerFor } from '../pipeline/tile-scheduler.ts';
import { sendError, sendJson } from './send.ts';
import { WebRoutes, type WebDeps } from './web-routes.ts';

/**
 * What the handlers need; `exports.store` serves downloads and takes finished exports; `readiness`
 * is the service's start-up (absent: ready from the start); `cors` the browser origins allowed
 * (absent: none); `web` the page, its map and assets (absent: no page).
 */
export type AppDeps = Omit<ContextDeps, 'readiness'> & {
  exports?: ExportDeps;
  readiness?: Readiness;
  cors?: CorsPolicy;
  web?: WebDeps;
  /** What /readyz pings once warm (dependency-checks.ts); absent: none. */
  checks?: readonly DependencyCheck[];
  /** Requests in progress, for a graceful shutdown (absent: untracked). */
  drain?: RequestDrain;
};

/**
 * The HTTP surface: routing, the error contract and the connection limits. Everything else is in
 * the handlers. With `early`, on the server that already listens (early-listener.ts).
 */
export function createApp(appDeps: AppDeps, early?: EarlyListener): Server {
  const limits = { ...HTTP_LIMIT_DEFAULTS, ...appDeps.limits };
  const metrics = appDeps.metrics ?? new ServiceMetrics();
  const deps = { ...appDeps, metrics, limits, bodies: new BodyBudget(limits.maxBufferedBodyBytes), readiness: appDeps.readiness ?? Readiness.ready() };
  // read when scraped (an app built for a test may have no pool or admission)
  const pool = () => deps.pipeline?.pool;
  metrics.watch({
    inFlight: () => deps.admission?.inFlight ?? 0,
    queued: () => deps.admission?.queued ?? 0,
    tilesWaiting: () => (pool() ? schedulerFor(pool()!).waiting + (pool()!.queueSize ?? 0) : 0),
    tilesRunning: () => (pool() ? schedulerFor(pool()!).inFlight : 0),
  });
  let openapi: string | null = null;
  const cors = appDeps.cors ?? new CorsPolicy();
  const web = appDeps.web ? new WebRoutes(appDeps.web, appDeps.accounts, appDeps.trustedProxies) : null;
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    const handled = handle(req, res);
    deps.drain?.track(handled);
    return handled;
  };
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    endDeliveryWatch(req.socket);
    const path = (req.url ?? '/').split('?')[0];
    const download = DOWNLOAD_PATH.exec(path);
    trackRequest(req, res, routeOf(path, download !== null), deps.log, metrics);
    if (deps.drain?.closing) res.setHeader('connection', 'close');
    if (cors.handle(req, res)) return; // a preflight, answered
    try {
      if (await web?.route(req, res, path)) return;
      if (path === '/v1/context') {
        if (req.method !== 'POST') throw notAllowed('POST');
        await handleContext(req, res, deps);
      } else if (path === '/v1/openapi.json') {
        if (req.method !== 'GET' && req.method !== 'HEAD') throw notAllowed('GET, HEAD');
        openapi ??= JSON.stringify(buildOpenApiDocument());
        res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(openapi) });
        res.end(req.method === 'HEAD' ? undefined : openapi);
      } else if (download) {
        await handleDownload(req, res, download, deps.exports?.store, { slowReaderTimeoutMs: limits.slowReaderTimeoutMs, log: deps.log });
      } else if (path === '/healthz') {
        if (req.method !== 'GET' && req.method !== 'HEAD') throw notAllowed('GET, HEAD');
        sendJson(res, 200, { status: 'ok', inFlight: deps.admission.inFlight, queued: deps.admission.queued });
      } else if (path === '/readyz') {
        if (req.method !== 'GET' && req.method !== 'HEAD') throw notAllowed('GET, HEAD');
        const notReady = deps.readiness.notReadyError() ?? unreachable(await failingChecks(deps.checks ?? []));
        if (notReady) throw notReady;
        sendJson(res, 200, { status: 'ready' });
      } else if (path === '/metrics') {
        if (req.method !== 'GET' && req.method !== 'HEAD') throw notAllowed('GET, HEAD');
        const text = await metrics.text();
        res.writeHead(200, { 'content-type': metrics.contentType, 'content-length': Buffer.byteLength(text), 'cache-control': 'no-store' });
        res.end(req.method === 'HEAD' ? undefined : text);
      } else {
        throw new ApiError('not_found', `There is no resource at ${path}; the service answers POST /v1/context.`);
      }
    } catch (err) {
      if (isClientAbort(err, req)) {
        // The client went away: nobody to answer, and not a server fault (an info line, no stack).
        deps.log(`${req.method} ${path} aborted by the client (${(err as Error).message})`);
        res.destroy();
        return;
      }
      if (!(err instanceof ApiError)) deps.log(`internal error: ${(err as Error)?.stack ?? String(err)}`);
      noteRequest(req, { code: err instanceof ApiError ? err.code : 'internal_error' });
      // Refused before its body was read: take the rest (bounded) so the client sees the answer, not a reset.
      if (!res.headersSent) await discardBody(req, limits.maxDrainBytes);
      sendError(res, err);
    }
  };
  const server = early?.server ?? createHttpServer(limits, appDeps.trustedProxies);
  checkBeforeContinue(server, (req) => declaredTooLarge(req, deps.maxBodyBytes));
  if (web) server.on('close', () => web.close());
  if (early) early.handOver(handler);
  else server.on('request', handler);
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) => answerClientError(err, socket, deps.log));
  server.on('connect', (_req, socket) => answerConnect(socket));
  return server;
}

/** The 503 of a /readyz whose dependencies do not all answer; null when they do. */
function unreachable(failing: { name: string; message: string }[]): ApiError | null {
  if (failing.length === 0) return null;
  const names = failing.map((f) => f.name).join(', ');
  return new ApiError(
    'not_ready',
    `The service cannot reach ${names}; requests that need it fail until it answers again.`,
    failing.map((f) => ({ message: `${f.name}: ${f.message}`, check: f.name })),
    { 'Retry-After': '1' },
  );
}

function notAllowed(allow: string): ApiError {
  return new ApiError('method_not_allowed', `This resource only answers ${allow}.`, [], { Allow: allow });
}

/**
 * True when the error only says the client closed the connection mid-request (the body stream
 * fails with `aborted` / ECONNRESET, or a write after it left), which is not an internal error.
 */
export function isClientAbort(err: unknown, req: IncomingMessage): boolean {
  if (err instanceof ApiError || !(err instanceof Error)) return false;
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ECONNRESET' || code === 'EPIPE' || code === 'ERR_STREAM_PREMATURE_CLOSE') return true;
  return err.message === 'aborted' && (req.destroyed || req.socket?.destroyed === true);
}
