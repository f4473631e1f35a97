/**
 * The HTTP server, listening before the rest of the service's code is loaded: compiling the
 * request path (zod schemas, the feature families, geometry, DEM readers) takes the main thread
 * about a second on a quiet box and several on a busy one. Until the service hands its request
 * handler over, `/healthz` answers 200, `/readyz` 503 `not_ready`, and every other request waits
 * for the handler and is then served by it. Imports nothing heavy on purpose.
 */
import type { IncomingMessage, RequestListener, Server, ServerResponse } from 'node:http';
import { ApiError } from '../contract/errors.ts';
import type { HttpLimits } from './http-limits.ts';
import { createHttpServer } from './http-server.ts';
import { sendError, sendJson } from './send.ts';
import type { TrustedProxies } from './trusted-proxies.ts';

export interface ListenAddress {
  host: string;
  port: number;
}

/** HOST (default 127.0.0.1) and PORT (default 8080; 0 = any free port). */
export function listenAddressFromEnv(env: NodeJS.ProcessEnv): ListenAddress {
  const port = env.PORT === undefined || env.PORT === '' ? 8080 : Number(env.PORT);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new Error(`PORT must be a port number, not ${env.PORT}`);
  return { host: env.HOST || '127.0.0.1', port };
}

/** Why listening on `address` failed, in one line that names the setting to change. */
export function listenFailure(err: NodeJS.ErrnoException, address: ListenAddress): string {
  const where = `${address.host}:${address.port}`;
  if (err.code === 'EADDRINUSE') return `${where} is already in use by another process (set PORT or HOST to another address).`;
  if (err.code === 'EACCES') return `not allowed to listen on ${where} (ports below 1024 need privileges; set PORT).`;
  if (err.code === 'EADDRNOTAVAIL') return `${address.host} is not an address of this machine (set HOST).`;
  return `cannot listen on ${where}: ${err.message}`;
}

export interface EarlyListener {
  server: Server;
  /** From now on `handler` answers every request, those that waited for it first. */
  handOver(handler: RequestListener): void;
}

/** Listens on `address` at once and holds requests until {@link EarlyListener.handOver}. */
export async function listenEarly(address: ListenAddress, limits: HttpLimits, trustedProxies?: TrustedProxies): Promise<EarlyListener> {
  const server = createHttpServer(limits, trustedProxies);
  let handler: RequestListener | null = null;
  const waiting: [IncomingMessage, ServerResponse][] = [];
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (handler) return handler(req, res);
    const path = (req.url ?? '/').split('?')[0];
    if (path === '/healthz' && (req.method === 'GET' || req.method === 'HEAD')) return sendJson(res, 200, { status: 'ok', inFlight: 0, queued: 0 });
    if (path === '/readyz' && (req.method === 'GET' || req.method === 'HEAD')) {
      const phase = 'loading the code';
      const message = `The service is starting (${phase}); requests are accepted and wait until the workers are up, then run slower until it is warm.`;
      return sendError(res, new ApiError('not_ready', message, [{ message: phase, phase }], { 'Retry-After': '1' }));
    }
    waiting.push([req, res]);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(address.port, address.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    server,
    handOver(next) {
      handler = next;
      for (const [req, res] of waiting.splice(0)) if (!res.destroyed) next(req, res);
    },
  };
}
