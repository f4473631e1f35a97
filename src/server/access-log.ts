/**
 * One JSON line per request on the service's log (docs/operations.md "Logs and metrics"), and the
 * request's count and latency in the metrics. The handlers add what they learn on the way
 * ({@link noteRequest}: the account, the area, the groups, an error code); the line is written
 * when the response closes. Never the key, the body or a download's path (its token is the
 * download's credential): the route names what was asked.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Route, ServiceMetrics } from './metrics.ts';
import { requestIdOf } from './request-id.ts';

export interface RequestFacts {
  accountId?: number;
  areaKm2?: number;
  groups?: readonly string[];
  /** The export format, for an export. */
  format?: string;
  /** The error code of the answer (docs/api.md), when it was an error. */
  code?: string;
}

/** The log line of one request. */
export interface AccessLogEntry extends RequestFacts {
  time: string;
  level: 'info' | 'warn' | 'error';
  msg: 'request';
  requestId: string;
  method: string;
  route: Route;
  /** 0 when the connection closed before any answer was sent. */
  status: number;
  /** False when the response was cut (client gone, slow reader, shutdown) before its end. */
  complete: boolean;
  ms: number;
  /** Bytes written to the connection for this response, headers included. */
  bytes: number;
}

const facts = new WeakMap<IncomingMessage, RequestFacts>();

/** Adds what a handler learnt about `req` to its log line. */
export function noteRequest(req: IncomingMessage, more: RequestFacts): void {
  facts.set(req, { ...facts.get(req), ...more });
}

/** Probes are counted but not logged: a load balancer and a scraper each send one every few seconds. */
const QUIET_ROUTES = new Set<Route>(['/healthz', '/readyz', '/metrics']);

/** Logs `req` and counts it in `metrics` once its response has closed. */
export function trackRequest(req: IncomingMessage, res: ServerResponse, route: Route, log: (line: string) => void, metrics: ServiceMetrics): void {
  const started = performance.now();
  const socket = req.socket;
  const bytesBefore = socket.bytesWritten;
  res.once('close', () => {
    const ms = performance.now() - started;
    const known = facts.get(req) ?? {};
    const status = res.headersSent ? res.statusCode : 0;
    const complete = res.writableFinished;
    const code = known.code ?? (complete ? '' : 'incomplete');
    metrics.request(route, req.method ?? '', status, code, ms / 1000);
    if (QUIET_ROUTES.has(route)) return;
    const entry: AccessLogEntry = {
      time: new Date().toISOString(),
      level: status >= 500 ? 'error' : status === 0 || status >= 400 || !complete ? 'warn' : 'info',
      msg: 'request',
      requestId: requestIdOf(req),
      method: req.method ?? '',
      route,
      status,
      complete,
      ms: Math.round(ms),
      bytes: socket.bytesWritten - bytesBefore,
      ...known,
      ...(code ? { code } : {}),
    };
    log(JSON.stringify(entry));
  });
}
