import { BaseClient, BaseResponse } from 'geotiff';
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

class UndiciResponse extends BaseResponse {
  constructor(
    private readonly code: number,
    private readonly headers: Record<string, string | string[] | undefined>,
    private readonly data: ArrayBuffer,
  ) {
    super();
  }

  override get status(): number {
    return this.code;
  }

  override getHeader(name: string): string | undefined {
    const v = this.headers[name.toLowerCase()];
    return Array.isArray(v) ? v.join(', ') : v;
  }

  override async getData(): Promise<ArrayBuffer> {
    return this.data;
  }
}

/**
 * geotiff's HTTP client interface on undici, so that COG reads use keep-alive connections and
 * `Range` requests, and count what they transfer.
 */
export class UndiciGeoTiffClient extends BaseClient {
  readonly stats: TransferStats = { requests: 0, bytesReceived: 0 };

  constructor(
    url: string,
    private readonly extraHeaders: Record<string, string> = {},
  ) {
    super(url);
  }

  override async request(options: RequestInit = {}): Promise<BaseResponse> {
    const headers: Record<string, string> = { ...this.extraHeaders };
    new Headers(options.headers ?? {}).forEach((value, key) => {
      headers[key] = value;
    });
    const res = await request(this.url, { method: 'GET', headers, signal: options.signal ?? undefined });
    const data = await res.body.arrayBuffer();
    this.stats.requests++;
    this.stats.bytesReceived += data.byteLength;
    return new UndiciResponse(res.statusCode, res.headers, data);
  }
}
