/**
 * The web page's files, as `npm run build` bundled them into dist/web (scripts/build/bundle-web.mjs):
 * `/` is the page, `/docs` the API description page, `/assets/<file>` their scripts, styles and
 * MapLibre's worker. Only the files the build wrote are served (listed once), never a path the
 * URL makes up; each is read once and kept with its gzip form, since there are a handful.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { ApiError } from '../contract/errors.ts';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
};

/** The pages: revalidated on every load, so a new build shows at once; assets may be reused for an hour. */
const PAGES: Record<string, string> = { '/': 'index.html', '/index.html': 'index.html', '/docs': 'docs.html' };
const ASSET_PREFIX = '/assets/';

interface Asset {
  body: Buffer;
  gzip: Buffer | null;
  type: string;
  etag: string;
}

export interface WebAssetOptions {
  /** The folder the build wrote (dist/web). */
  dir: string;
  /** Origins besides this one the page may fetch from (a configured base-map style's); none by default. */
  extraConnectOrigins?: readonly string[];
}

export class WebAssets {
  private readonly files = new Map<string, Asset>();
  private listed: Set<string> | null = null;
  private readonly csp: string;

  constructor(private readonly options: WebAssetOptions) {
    const connect = ["'self'", ...(options.extraConnectOrigins ?? [])].join(' ');
    // The page talks to this service only: the browser refuses anything else, so a stray
    // reference to a CDN or tile server fails loudly instead of leaking requests.
    this.csp = [
      "default-src 'self'",
      "script-src 'self'",
      "worker-src 'self' blob:",
      "style-src 'self' 'unsafe-inline'",
      "img-src 'self' data: blob:",
      `connect-src ${connect}`,
      "object-src 'none'",
      "base-uri 'none'",
      "frame-ancestors 'self'",
    ].join('; ');
  }

  /** Whether `path` is one of the page's routes (the caller answers everything else). */
  handles(path: string): boolean {
    return path in PAGES || path.startsWith(ASSET_PREFIX);
  }

  serve(req: IncomingMessage, res: ServerResponse, path: string): void {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      throw new ApiError('method_not_allowed', 'This resource only answers GET, HEAD.', [], { Allow: 'GET, HEAD' });
    }
    const page = PAGES[path];
    const name = page ?? path.slice(ASSET_PREFIX.length);
    const asset = this.asset(name);
    if (!asset) {
      if (page) throw new ApiError('not_found', `The web page is not built: run \`npm run build\` (it bundles ${this.options.dir}).`);
      throw new ApiError('not_found', `There is no resource at ${path}.`);
    }
    const headers: Record<string, string | number> = {
      'content-type': asset.type,
      'cache-control': page ? 'no-cache' : 'public, max-age=3600',
      etag: asset.etag,
      vary: 'accept-encoding',
      'referrer-policy': 'no-referrer',
      // on scripts too: a worker (MapLibre's) runs under the policy of its own script's answer
      'content-security-policy': this.csp,
    };
    if (req.headers['if-none-match'] === asset.etag) {
      res.writeHead(304, headers);
      res.end();
      return;
    }
    const gzip = asset.gzip && /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''));
    const body = gzip ? asset.gzip! : asset.body;
    if (gzip) headers['content-encoding'] = 'gzip';
    headers['content-length'] = body.length;
    res.writeHead(200, headers);
    res.end(req.method === 'HEAD' ? undefined : body);
  }

  private asset(name: string): Asset | null {
    const known = this.files.get(name);
    if (known) return known;
    this.listed ??= existsSync(this.options.dir) ? new Set(readdirSync(this.options.dir)) : null;
    const type = CONTENT_TYPES[extname(name)];
    if (!this.listed?.has(name) || !type) {
      // the build may have run after the first request (a development server): look again next time
      this.listed = null;
      return null;
    }
    const file = join(this.options.dir, name);
    const body = readFileSync(file);
    const stat = statSync(file);
    const gzip = body.length > 1024 && !name.endsWith('.map') ? gzipSync(body, { level: 6 }) : null;
    const asset: Asset = { body, gzip, type, etag: `"${stat.size.toString(36)}-${Math.floor(stat.mtimeMs).toString(36)}"` };
    this.files.set(name, asset);
    return asset;
  }
}
