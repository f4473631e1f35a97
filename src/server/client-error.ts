/**
 * Answers for requests Node's HTTP parser refuses before any handler runs (malformed framing,
 * over-long headers, timeouts): the error body of docs/design.md, as for every other refusal,
 * instead of Node's bare status line. Resets and sockets already gone get nothing, and are no
 * server fault.
 */
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { ApiError, type ErrorCode } from '../contract/errors.ts';

const STATUS_TEXT: Record<number, string> = { 400: 'Bad Request', 405: 'Method Not Allowed', 408: 'Request Timeout', 431: 'Request Header Fields Too Large' };

/** The error a parser failure stands for, or null when there is nobody to answer. */
export function clientErrorAnswer(err: NodeJS.ErrnoException): ApiError | null {
  const code = err.code ?? '';
  // The client went away (reset, or end of stream mid-request): nobody to answer.
  if (code === 'ECONNRESET' || code === 'EPIPE' || code === 'HPE_INVALID_EOF_STATE') return null;
  let api: ErrorCode = 'invalid_request';
  let message = 'The request is not well-formed HTTP/1.1.';
  if (code === 'HPE_HEADER_OVERFLOW') {
    api = 'headers_too_large';
    message = 'The request headers are too large.';
  } else if (code === 'ERR_HTTP_REQUEST_TIMEOUT' || code === 'HPE_HEADERS_TIMEOUT') {
    api = 'request_timeout';
    message = 'The request was not received in time.';
  }
  return new ApiError(api, message, [{ message: code || 'parse error' }]);
}

/** Writes the answer to `err` on the raw socket and closes it. */
export function answerClientError(err: NodeJS.ErrnoException, socket: Socket, log: (line: string) => void): void {
  const api = clientErrorAnswer(err);
  // A response under way (or a socket we cut ourselves) cannot take a second answer.
  if (!api || !socket.writable || (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent) {
    socket.destroy();
    return;
  }
  log(`client error ${api.status}: ${err.code ?? err.message}`);
  writeRawError(socket, api);
}

/** CONNECT is not routed to request handlers by Node: it gets its 405 here. */
export function answerConnect(socket: Duplex): void {
  writeRawError(socket, new ApiError('method_not_allowed', 'This server is not a proxy; it answers POST /v1/context.', [], { Allow: 'GET, HEAD, POST' }));
}

function writeRawError(socket: Duplex, api: ApiError): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const body = JSON.stringify(api.toBody());
  socket.end(
    `HTTP/1.1 ${api.status} ${STATUS_TEXT[api.status] ?? 'Error'}\r\n` +
      'Content-Type: application/json; charset=utf-8\r\n' +
      'X-Content-Type-Options: nosniff\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      Object.entries(api.headers)
        .map(([k, v]) => `${k}: ${v}\r\n`)
        .join('') +
      'Connection: close\r\n\r\n' +
      body,
  );
  // Closed for good a little later: at once would reset a client still sending, losing the answer.
  setTimeout(() => socket.destroy(), 2000).unref();
}
