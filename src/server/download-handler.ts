import type { IncomingMessage, ServerResponse } from 'node:http';
import { pipeline } from 'node:stream/promises';
import { ApiError } from '../contract/errors.ts';
import type { ExportStore } from '../export/store/types.ts';
import { watchSlowReader } from './delivery.ts';
import { contentDisposition, etagMatches, ifRangeHolds, parseRange } from './http-download-headers.ts';

/** `/v1/exports/<token>/<name>`; the name is percent-encoded as in the download URL. */
export const DOWNLOAD_PATH = /^\/v1\/exports\/([^/]+)\/([^/]+)$/;

/** What a download is watched with: the slow-reader timeout (http-limits.ts) and the log. */
export interface DownloadWatch {
  slowReaderTimeoutMs: number;
  log: (line: string) => void;
}

/**
 * GET/HEAD of an exported file. No API key: the ≥ 128-bit token in the URL is the credential
 * (the link can be handed to a browser or a colleague), so answers are `private` and nothing
 * distinguishes a wrong token from an expired one. A client that takes no byte for the slow-reader
 * timeout is cut, which closes the file (it would otherwise keep the handle, and after the sweep
 * the disk space of a deleted file, for as long as it likes).
 */
export async function handleDownload(
  req: IncomingMessage,
  res: ServerResponse,
  match: RegExpExecArray,
  store: ExportStore | undefined,
  watch: DownloadWatch,
): Promise<void> {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    throw new ApiError('method_not_allowed', 'This resource only answers GET and HEAD.', [], { Allow: 'GET, HEAD' });
  }
  const token = match[1];
  let name: string;
  try {
    name = decodeURIComponent(match[2]);
  } catch {
    throw gone();
  }
  const file = store ? await store.head(token, name) : null;
  if (!file || !store) throw gone();

  const headers: Record<string, string | number> = {
    etag: file.etag,
    'cache-control': `private, max-age=${Math.max(0, Math.floor((file.expiresAt - Date.now()) / 1000))}`,
    'accept-ranges': 'bytes',
    'content-disposition': contentDisposition(file.name),
    // The token is the secret: never leak it to a third party through a Referer.
    'referrer-policy': 'no-referrer',
    'x-content-type-options': 'nosniff',
  };
  if (etagMatches(req.headers['if-none-match'], file.etag)) {
    res.writeHead(304, headers);
    res.end();
    return;
  }
  const range = ifRangeHolds(req.headers['if-range'] as string | undefined, file.etag) ? parseRange(req.headers.range, file.size) : { kind: 'full' as const };
  if (range.kind === 'unsatisfiable') {
    throw new ApiError(
      'range_not_satisfiable',
      `The requested range is outside the file of ${file.size} bytes.`,
      [{ path: ['headers', 'range'], message: String(req.headers.range) }],
      { 'Content-Range': `bytes */${file.size}`, 'Accept-Ranges': 'bytes' },
    );
  }
  const part = range.kind === 'partial' ? { start: range.start, end: range.end } : undefined;
  headers['content-type'] = file.contentType;
  headers['content-length'] = part ? part.end - part.start + 1 : file.size;
  if (part) headers['content-range'] = `bytes ${part.start}-${part.end}/${file.size}`;
  if (req.method === 'HEAD') {
    res.writeHead(part ? 206 : 200, headers);
    res.end();
    return;
  }
  const body = await store.read(token, name, part);
  if (!body) throw gone(); // expired or evicted between head and read
  res.writeHead(part ? 206 : 200, headers);
  const slow = watchSlowReader(res, watch.slowReaderTimeoutMs, () => watch.log(`download cut: the client read nothing for ${watch.slowReaderTimeoutMs} ms`));
  try {
    await pipeline(body, res); // a cut response fails the pipeline, which destroys (closes) the file stream
  } catch (err) {
    if (!slow.cut) throw err;
  } finally {
    slow.stop();
  }
}

function gone(): ApiError {
  return new ApiError('not_found', 'This download does not exist or has expired; export links last a limited time, so request the export again.');
}
