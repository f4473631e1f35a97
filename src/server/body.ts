import type { IncomingMessage } from 'node:http';
import { ApiError } from '../contract/errors.ts';
import { MAX_JSON_DEPTH, MAX_OBJECT_KEYS } from '../contract/limits.ts';
import { jsonShapeProblem } from './json-shape.ts';

/**
 * Bytes of request bodies held in memory by all requests together. Bodies are read before
 * admission, so without this many large uploads at once could hold gigabytes.
 */
export class BodyBudget {
  #held = 0;
  constructor(private readonly maxBytes: number) {}
  get held(): number {
    return this.#held;
  }
  /** Takes `n` bytes of the budget; false (nothing taken) when they do not fit. */
  take(n: number): boolean {
    if (this.#held + n > this.maxBytes) return false;
    this.#held += n;
    return true;
  }
  give(n: number): void {
    this.#held -= n;
  }
}

/**
 * Reads the raw request body up to `limit` bytes; 413 payload_too_large past the limit. A body
 * over the limit is still read to its end (discarded) up to `drainLimit` bytes, so that the client
 * has finished sending and sees its 413 rather than a reset; past `drainLimit` the
 * connection is given up. With a `budget`, a body that does not fit in it gets 503 server_busy.
 */
export async function readBody(req: IncomingMessage, limit: number, drainLimit = limit, budget?: BodyBudget): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > Math.max(limit, drainLimit)) throw tooLarge(limit);
  let chunks: Buffer[] = [];
  let size = 0;
  let taken = 0;
  let refused: ApiError | null = null;
  try {
    // Refusals wait for the end of the body: leaving the loop early destroys the connection.
    for await (const chunk of req as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > Math.max(limit, drainLimit)) throw tooLarge(limit);
      if (size > limit || refused) continue; // read on, keep nothing
      if (budget && !budget.take(chunk.length)) {
        refused = busy();
        budget.give(taken);
        taken = 0;
        chunks = [];
        continue;
      }
      taken += chunk.length;
      chunks.push(chunk);
    }
    if (size > limit) throw tooLarge(limit);
    if (refused) throw refused;
    return Buffer.concat(chunks);
  } finally {
    // The caller parses the returned copy at once; the budget covers the upload, not the parse.
    if (budget) budget.give(taken);
  }
}

/** 413 when the body's declared length is over `limit` (for a client still waiting to send it), else null. */
export function declaredTooLarge(req: IncomingMessage, limit: number): ApiError | null {
  const declared = Number(req.headers['content-length']);
  return Number.isFinite(declared) && declared > limit ? tooLarge(limit) : null;
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

/**
 * Parses a body as JSON; 400 invalid_json when it is empty, malformed, nested deeper than
 * MAX_JSON_DEPTH or has an object with more than MAX_OBJECT_KEYS keys (both found before parsing).
 */
export function parseJsonBody(body: Buffer): unknown {
  const text = body.toString('utf8');
  if (text.trim() === '') throw new ApiError('invalid_json', 'The request body is empty; send a JSON object.');
  const shape = jsonShapeProblem(body, MAX_JSON_DEPTH, MAX_OBJECT_KEYS);
  if (shape === 'too_deep') {
    throw new ApiError('invalid_json', `The request body nests arrays or objects deeper than ${MAX_JSON_DEPTH} levels.`, [
      { message: `limit ${MAX_JSON_DEPTH} levels` },
    ]);
  }
  if (shape === 'too_many_keys') {
    throw new ApiError('invalid_json', `An object in the request body has more than ${MAX_OBJECT_KEYS} keys; the request format has a few dozen at most.`, [
      { message: `limit ${MAX_OBJECT_KEYS} keys per object` },
    ]);
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new ApiError('invalid_json', 'The request body is not valid JSON.', [{ message: (err as Error).message }]);
  }
}

function busy(): ApiError {
  return new ApiError('server_busy', 'The server is holding too many request bodies; retry shortly.', [], { 'Retry-After': '2' });
}

function tooLarge(limit: number): ApiError {
  return new ApiError('payload_too_large', `The request body is larger than ${limit} bytes.`, [{ message: `limit ${limit} bytes` }]);
}
