/**
 * Every request's id: echoed in `X-Request-Id` and written in its log line, so a client's report,
 * a proxy's log and the service's log can be matched. An id sent by a trusted proxy
 * (trusted-proxies.ts) is kept, so one id follows the request through the load balancer; from
 * anyone else it is replaced — a client must not be able to forge log lines that look like
 * another's, or push arbitrary text into the log.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TrustedProxies } from './trusted-proxies.ts';

export const REQUEST_ID_HEADER = 'X-Request-Id';

/** What an incoming id may look like: printable, no spaces or quotes, at most 128 characters. */
const ACCEPTED_ID = /^[A-Za-z0-9._:@/+=-]{1,128}$/;

const ids = new WeakMap<IncomingMessage, string>();

/** Gives `req` its id (the trusted proxy's, else a new UUID) and sets the response header. */
export function assignRequestId(req: IncomingMessage, res: ServerResponse, trustedProxies?: TrustedProxies): string {
  const incoming = req.headers['x-request-id'];
  const id = typeof incoming === 'string' && ACCEPTED_ID.test(incoming) && trustedProxies?.trusts(req.socket.remoteAddress) ? incoming : randomUUID();
  ids.set(req, id);
  res.setHeader(REQUEST_ID_HEADER, id);
  return id;
}

/** The id given to `req` (a new one if it somehow had none). */
export function requestIdOf(req: IncomingMessage): string {
  let id = ids.get(req);
  if (!id) ids.set(req, (id = randomUUID()));
  return id;
}
