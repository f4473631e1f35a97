import type { ServerResponse } from 'node:http';
import { ApiError } from '../contract/errors.ts';

/** Sends a small JSON answer; returns the body's size in bytes. */
export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): number {
  const text = JSON.stringify(body);
  const bytes = Buffer.byteLength(text);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': bytes, ...headers });
  res.end(text);
  return bytes;
}

/** Sends the error body of docs/design.md for any error; unknown errors become a 500 without internals. */
export function sendError(res: ServerResponse, err: unknown): void {
  const api = err instanceof ApiError ? err : new ApiError('internal_error', 'The server failed to process the request.');
  if (res.headersSent) {
    res.destroy(err instanceof Error ? err : undefined);
    return;
  }
  // An unread (too large) body would otherwise be drained on a kept-alive connection.
  const headers = api.code === 'payload_too_large' ? { ...api.headers, connection: 'close' } : api.headers;
  sendJson(res, api.status, api.toBody(), headers);
}
