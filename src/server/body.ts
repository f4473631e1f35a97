import type { IncomingMessage } from 'node:http';
import { ApiError } from '../contract/errors.ts';

/** Reads the raw request body up to `limit` bytes; 413 payload_too_large past the limit. */
export async function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) throw tooLarge(limit);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw tooLarge(limit);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** Parses a body as JSON; 400 invalid_json when it is empty or malformed. */
export function parseJsonBody(body: Buffer): unknown {
  const text = body.toString('utf8');
  if (text.trim() === '') throw new ApiError('invalid_json', 'The request body is empty; send a JSON object.');
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new ApiError('invalid_json', 'The request body is not valid JSON.', [{ message: (err as Error).message }]);
  }
}

function tooLarge(limit: number): ApiError {
  return new ApiError('payload_too_large', `The request body is larger than ${limit} bytes.`, [{ message: `limit ${limit} bytes` }]);
}
