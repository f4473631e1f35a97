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
import { sendError, sendJson } from './send.ts';
import { WebRoutes, type WebDeps } from './web-routes.ts';

/**
 * What the handlers need; `exports.store` serves downloads and takes finished exports; `readiness`
 * is the service's start-up (absent: ready from the start); `cors` the browser origins allowed
 * (absent: none); `web` the page, its map and assets (absent: no page).
 */
export type AppDeps = Omit<ContextDeps, 'readiness'> & { exports?: ExportDeps; readiness?: Readiness; cors?: CorsPolicy; web?: WebDeps };

/**
 * The HTTP surface: routing, the error contract and the connection limits. Everything else is in
 * the handlers. With `early`, on the server that already listens (early-listener.ts).
 */
export function createApp(appDeps: AppDeps, early?: EarlyListener): Server {
  const limits = { ...HTTP_LIMIT_DEFAULTS, ...appDeps.limits };
  const deps = { ...appDeps, limits, bodies: new BodyBudget(limits.maxBufferedBodyBytes), readiness: appDeps.readiness ?? Readiness.ready() };
  let openapi: string | null = null;
  const cors = appDeps.cors ?? new CorsPolicy();
  const web = appDeps.web ? new WebRoutes(appDeps.web, appDeps.accounts, appDeps.trustedProxies) : null;
  const handler = async (req: IncomingMessage, res: ServerResponse) => {
    endDeliveryWatch(req.socket);
    if (cors.handle(req, res)) return; // a preflight, answered
    const path = (req.url ?? '/').split('?')[0];
    let download: RegExpExecArray | null;
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
      } else if ((download = DOWNLOAD_PATH.exec(path))) {
        await handleDownload(req, res, download, deps.exports?.store, { slowReaderTimeoutMs: limits.slowReaderTimeoutMs, log: deps.log });
      } else if (path === '/healthz') {
        if (req.method !== 'GET' && req.method !== 'HEAD') throw notAllowed('GET, HEAD');
        sendJson(res, 200, { status: 'ok', inFlight: deps.admission.inFlight, queued: deps.admission.queued });
      } else if (path === '/readyz') {
        if (req.method !== 'GET' && req.method !== 'HEAD') throw notAllowed('GET, HEAD');
        const notReady = deps.readiness.notReadyError();
        if (notReady) throw notReady;
        sendJson(res, 200, { status: 'ready' });
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
