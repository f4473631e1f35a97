import { request } from 'undici';

/** Bytes and requests a remote source has used (diagnostics; tests check range reads with it). */
export interface TransferStats {
  requests: number;
  bytesReceived: number;
}

/** GET `url` with undici; resolves to null on 404 (a missing tile is not an error). */
export async function fetchBytes(
  url: string,
  options: { headers?: Record<string, string>; signal?: AbortSignal; stats?: TransferStats } = {},
): Promise<Uint8Array | null> {
  const res = await request(url, { method: 'GET', headers: options.headers, signal: options.signal });
  if (res.statusCode === 404) {
    await res.body.dump();
    return null;
  }
  if (res.statusCode < 200 || res.statusCode > 299) {
    await res.body.dump();
    throw new Error(`GET ${url}: HTTP ${res.statusCode}`);
  }
  const bytes = new Uint8Array(await res.body.arrayBuffer());
  if (options.stats) {
    options.stats.requests++;
    options.stats.bytesReceived += bytes.byteLength;
  }
  return bytes;
}
