/**
 * The node:http server every handler runs on (early-listener.ts listens on it before the service
 * has loaded; app.ts adds the routes): Node's timeouts, the connection guard, the headers every
 * response carries, and `Expect: 100-continue` answered by the service rather than by Node.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { ApiError } from '../contract/errors.ts';
import { ConnectionGuard } from './connection-guard.ts';
import type { HttpLimits } from './http-limits.ts';
import { assignRequestId } from './request-id.ts';
import { sendError } from './send.ts';
import type { TrustedProxies } from './trusted-proxies.ts';

/** What a request that asks `Expect: 100-continue` is refused for before its body is sent (null: go on). */
export type ContinueCheck = (req: IncomingMessage) => ApiError | null;

const continueChecks = new WeakMap<Server, ContinueCheck>();

/** From now on, a request with `Expect: 100-continue` that `check` refuses gets its error instead of "100 Continue". */
export function checkBeforeContinue(server: Server, check: ContinueCheck): void {
  continueChecks.set(server, check);
}

export function createHttpServer(limits: HttpLimits, trustedProxies?: TrustedProxies): Server {
  const server = createServer({
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    // How often Node checks the two timeouts above: often enough that they hold to about a quarter.
    connectionsCheckingInterval: Math.max(50, Math.min(30_000, Math.floor(Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs) / 4))),
  });
  server.keepAliveTimeout = 5_000;
  // Not Node's maxConnections: that closes the newcomer, while the guard makes room for it.
  const guard = new ConnectionGuard({
    maxConnections: limits.maxConnections,
    maxConnectionsPerAddress: limits.maxConnectionsPerAddress,
    idleTimeoutMs: limits.idleTimeoutMs,
    trustedProxies,
  });
  server.on('connection', (socket: Socket) => guard.admit(socket));
  server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
    guard.used(req.socket);
    // No browser may guess a type other than the one declared (a JSON error read as HTML, say).
    res.setHeader('X-Content-Type-Options', 'nosniff');
    assignRequestId(req, res, trustedProxies);
  });
  // With a listener here Node no longer sends "100 Continue" by itself: a body that is refused
  // anyway (10 GB declared) gets its answer at once instead of being invited and then timed out.
  server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => {
    const refusal = continueChecks.get(server)?.(req);
    if (!refusal) {
      res.writeContinue();
      server.emit('request', req, res);
      return;
    }
    guard.used(req.socket);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    assignRequestId(req, res, trustedProxies);
    sendError(res, refusal); // closes the connection: the body it announced never comes
  });
  return server;
}
