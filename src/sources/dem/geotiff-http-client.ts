/**
 * geotiff's HTTP client on undici. Apart from http.ts so that geotiff (~20 MB resident in every
 * thread that loads it) is imported only when a GeoTIFF is opened (geotiff-source.ts).
 */
import { BaseClient, BaseResponse } from 'geotiff';
import { request } from 'undici';
import type { TransferStats } from './http.ts';

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
