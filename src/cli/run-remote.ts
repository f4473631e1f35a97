/**
 * `generate --url … --key …`: the same request sent to a running service. The geometry answer is
 * streamed to the output as it arrives; an export's answer is its link, and the file is then
 * downloaded from it. A refusal comes back as the API's error (same message, same exit code as in
 * this process).
 */
import { basename } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { request, type Dispatcher } from 'undici';
import { ApiError, ERROR_STATUS, type ErrorCode } from '../contract/errors.ts';
import type { CommandIo } from './command.ts';
import { openOutput } from './output-file.ts';
import type { Progress } from './progress.ts';
import type { GenerateOutcome } from './run-local.ts';

export interface RemoteRun {
  url: string;
  key: string;
  /** The body as the user gave it (the server validates it again). */
  body: unknown;
  isExport: boolean;
  out: string | null | ((fileName: string) => string | null);
  progress: Progress;
  io: CommandIo;
  signal: AbortSignal;
}

/** A connection that cannot be made, or drops: not an answer from the service. */
export class UnreachableError extends Error {}

/** No wait for the answer's head: an export is answered only when its file is written. Between two chunks, 5 minutes. */
const TIMEOUTS = { headersTimeout: 0, bodyTimeout: 300_000 };

export async function generateRemote(run: RemoteRun): Promise<GenerateOutcome> {
  const base = run.url.replace(/\/+$/, '');
  const res = await send(`${base}/v1/context`, {
    method: 'POST',
    headers: { authorization: `Bearer ${run.key}`, 'content-type': 'application/json', 'accept-encoding': 'gzip' },
    body: JSON.stringify(run.body),
    signal: run.signal,
    ...TIMEOUTS,
  });
  if (res.statusCode !== 200) throw await refusal(res);
  const cost = res.headers['x-cost-km2'];
  if (typeof cost === 'string') run.progress.note(`charged ${cost} km² to the key's account`);
  if (!run.isExport) {
    const out = typeof run.out === 'function' ? run.out('') : run.out;
    const stages: NodeJS.ReadWriteStream[] = res.headers['content-encoding'] === 'gzip' ? [createGunzip()] : [];
    await receive(res.body, stages, out, run);
    return { file: out, downloadUrl: null, spatialReference: null, warnings: [] };
  }
  const answer = (await res.body.json()) as { downloadUrl: string; spatialReference: unknown; warnings?: GenerateOutcome['warnings'] };
  const fileName = decodeURIComponent(basename(new URL(answer.downloadUrl).pathname));
  const out = typeof run.out === 'function' ? run.out(fileName) : run.out;
  run.progress.note(`downloading ${answer.downloadUrl}`);
  // the link is its own credential (docs/exports.md): the key is not sent with it, wherever it points
  const file = await send(answer.downloadUrl, { method: 'GET', signal: run.signal, ...TIMEOUTS });
  if (file.statusCode !== 200) throw await refusal(file);
  await receive(file.body, [], out, run);
  return { file: out, downloadUrl: answer.downloadUrl, spatialReference: answer.spatialReference, warnings: answer.warnings ?? [], fileName };
}

async function send(url: string, options: Parameters<typeof request>[1]): Promise<Dispatcher.ResponseData<unknown>> {
  try {
    return await request(url, options);
  } catch (err) {
    if ((err as Error).name === 'AbortError') throw err;
    const cause = (err as { cause?: { code?: string } }).cause;
    throw new UnreachableError(`cannot reach ${new URL(url).origin}: ${(err as { code?: string }).code ?? cause?.code ?? (err as Error).message}`);
  }
}

/** The answer's bytes to the output, counted for the progress; the output is kept only when every byte came. */
async function receive(body: NodeJS.ReadableStream, stages: NodeJS.ReadWriteStream[], out: string | null, run: RemoteRun): Promise<void> {
  const output = openOutput(out, run.io.stdout);
  const count = new Transform({
    transform(chunk: Buffer, _enc, done) {
      run.progress.bytes(chunk.length);
      done(null, chunk);
    },
  });
  try {
    await pipeline([body, count, ...stages, output.stream]);
    await output.commit();
  } catch (err) {
    await output.abort();
    if ((err as Error).name === 'AbortError') throw err;
    throw new UnreachableError(`the answer from ${run.url} broke off: ${(err as Error).message}`);
  }
}

/** A non-200 answer as the ApiError it carries (its code and message), or a plain failure. */
async function refusal(res: Dispatcher.ResponseData<unknown>): Promise<Error> {
  const text = await res.body.text();
  let body: { error?: unknown; code?: unknown; details?: unknown } | null = null;
  try {
    body = JSON.parse(text);
  } catch {
    // not the API's error body (a proxy's page, say)
  }
  if (body && typeof body.error === 'string' && typeof body.code === 'string' && Object.hasOwn(ERROR_STATUS, body.code)) {
    return new ApiError(body.code as ErrorCode, body.error, Array.isArray(body.details) ? body.details : []);
  }
  return new Error(`the service answered ${res.statusCode}: ${text.slice(0, 300)}`);
}
