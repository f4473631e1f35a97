import type { IncomingMessage } from 'node:http';
import { ApiError } from '../contract/errors.ts';
import { MAX_JSON_DEPTH } from '../contract/limits.ts';
import { exceedsJsonDepth } from './json-depth.ts';

/**
 * Reads the raw request body up to `limit` bytes; 413 payload_too_large past the limit. A body
 * over the limit is still read to its end (discarded) up to `drainLimit` bytes, so that the client
 * has finished sending and sees its 413 rather than a reset (issue 13.7); past `drainLimit` the
 * connection is given up.
 */
export async function readBody(req: IncomingMessage, limit: number, drainLimit = limit): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > Math.max(limit, drainLimit)) throw tooLarge(limit);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > Math.max(limit, drainLimit)) throw tooLarge(limit);
    if (size <= limit) chunks.push(chunk);
  }
  if (size > limit) throw tooLarge(limit);
  return Buffer.concat(chunks);
}

/**
 * Reads and drops what is left of a request body (up to `drainLimit` bytes), so an answer sent
 * before the body was read (401, 415, 402) reaches the client instead of a reset. Never throws.
 */
export async function discardBody(req: IncomingMessage, drainLimit: number): Promise<void> {
  if (req.complete || req.destroyed) return;
  let size = 0;
  try {
    for await (const chunk of req as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > drainLimit) return; // leaving the loop destroys the request: the connection goes
    }
  } catch {
    // the client went away; nothing to answer
  }
}

/** 415 unsupported_media_type unless the body is declared JSON (or not declared at all). */
export function requireJsonContentType(req: IncomingMessage): void {
  const type = req.headers['content-type'];
  if (type === undefined || /^\s*(application|text)\/([\w.+-]+\+)?json\s*(;|$)/i.test(type)) return;
  throw new ApiError('unsupported_media_type', `The request body must be JSON (Content-Type: application/json), not ${JSON.stringify(type.slice(0, 100))}.`, [
    { message: 'send Content-Type: application/json' },
  ]);
}

/** Parses a body as JSON; 400 invalid_json when it is empty, malformed or nested deeper than MAX_JSON_DEPTH. */
export function parseJsonBody(body: Buffer): unknown {
  const text = body.toString('utf8');
  if (text.trim() === '') throw new ApiError('invalid_json', 'The request body is empty; send a JSON object.');
  if (exceedsJsonDepth(body, MAX_JSON_DEPTH)) {
    throw new ApiError('invalid_json', `The request body nests arrays or objects deeper than ${MAX_JSON_DEPTH} levels.`, [{ message: `limit ${MAX_JSON_DEPTH} levels` }]);
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new ApiError('invalid_json', 'The request body is not valid JSON.', [{ message: (err as Error).message }]);
  }
}

function tooLarge(limit: number): ApiError {
  return new ApiError('payload_too_large', `The request body is larger than ${limit} bytes.`, [{ message: `limit ${limit} bytes` }]);
}
