import { createServer, type IncomingMessage, type Server } from 'node:http';
import { ApiError } from '../contract/errors.ts';
import { buildOpenApiDocument } from '../contract/openapi.ts';
import type { ExportStore } from '../export/store/types.ts';
import { handleContext, type ContextDeps } from './context-handler.ts';
import { DOWNLOAD_PATH, handleDownload } from './download-handler.ts';
import { sendError, sendJson } from './send.ts';

/** What the handlers need; `exports.store` serves downloads and takes finished exports. */
export type AppDeps = ContextDeps & { exports?: { store: ExportStore; publicBaseUrl?: string | null } };

/** The HTTP surface: routing and the error contract. Everything else is in the handlers. */
export function createApp(deps: AppDeps): Server {
  let openapi: string | null = null;
  const server = createServer(async (req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    let download: RegExpExecArray | null;
    try {
      if (path === '/v1/context') {
        if (req.method !== 'POST') throw notAllowed('POST');
        await handleContext(req, res, deps);
      } else if (path === '/v1/openapi.json') {
        if (req.method !== 'GET' && req.method !== 'HEAD') throw notAllowed('GET');
        openapi ??= JSON.stringify(buildOpenApiDocument());
        res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(openapi) });
        res.end(req.method === 'HEAD' ? undefined : openapi);
      } else if ((download = DOWNLOAD_PATH.exec(path))) {
        await handleDownload(req, res, download, deps.exports?.store);
      } else if (path === '/healthz') {
        sendJson(res, 200, { status: 'ok', inFlight: deps.admission.inFlight, queued: deps.admission.queued });
      } else {
        throw new ApiError('not_found', `There is no resource at ${path}; the service answers POST /v1/context.`);
      }
    } catch (err) {
      if (isClientAbort(err, req)) {
        // The client went away: nobody to answer, and not a server fault.
        deps.log(`${req.method} ${path} aborted by the client (${(err as Error).message})`);
        res.destroy();
        return;
      }
      if (!(err instanceof ApiError)) deps.log(`internal error: ${(err as Error)?.stack ?? String(err)}`);
      sendError(res, err);
    }
  });
  server.keepAliveTimeout = 5_000;
  server.requestTimeout = 300_000;
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
