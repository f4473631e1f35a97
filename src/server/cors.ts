/**
 * Cross-origin requests from browser apps (CITY_CORS_ORIGINS; docs/api.md "Browsers and CORS").
 * Off by default: no `Access-Control-*` header is ever sent, so a page on another origin cannot
 * read an answer even with a key it holds. With an allow-list, a request whose `Origin` is on it
 * gets `Access-Control-Allow-Origin` with that origin (or `*` when the list is `*`), the headers a
 * client needs exposed, and its preflight (`OPTIONS` with `Access-Control-Request-Method`) a 204.
 * Keys travel in `Authorization`, never in cookies, so credentials mode is never allowed.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { listFromEnv } from './trusted-proxies.ts';

const ALLOW_METHODS = 'GET, HEAD, POST';
const ALLOW_HEADERS = 'Authorization, Content-Type, Range, If-Range, If-None-Match';
/** Response headers beyond the CORS-safelisted ones that clients read. */
const EXPOSE_HEADERS = 'X-Cost-Km2, Retry-After, Content-Disposition, Content-Range, Accept-Ranges, ETag';
/** How long a browser may cache a preflight's answer, s. */
const PREFLIGHT_MAX_AGE = 600;

export class CorsPolicy {
  readonly #origins: ReadonlySet<string>;
  readonly #any: boolean;

  /** `origins`: `scheme://host[:port]` each, or `*` for any; empty turns CORS off. */
  constructor(origins: readonly string[] = []) {
    for (const origin of origins) {
      if (origin !== '*' && !/^https?:\/\/[^/\s?#]+$/i.test(origin)) {
        throw new Error(`CITY_CORS_ORIGINS: not an origin (scheme://host[:port], no path): ${origin}`);
      }
    }
    this.#any = origins.includes('*');
    this.#origins = new Set(origins.map((o) => o.toLowerCase()));
  }

  get enabled(): boolean {
    return this.#any || this.#origins.size > 0;
  }

  /**
   * Adds the CORS headers to `res` for an allowed origin; then answers a preflight itself (true:
   * nothing more to do). A preflight from elsewhere is left to the router, which refuses OPTIONS.
   */
  handle(req: IncomingMessage, res: ServerResponse): boolean {
    if (!this.enabled) return false;
    res.setHeader('Vary', 'Origin');
    const origin = req.headers.origin;
    if (!origin || !(this.#any || this.#origins.has(origin.toLowerCase()))) return false;
    res.setHeader('Access-Control-Allow-Origin', this.#any ? '*' : origin);
    if (req.method !== 'OPTIONS' || req.headers['access-control-request-method'] === undefined) {
      res.setHeader('Access-Control-Expose-Headers', EXPOSE_HEADERS);
      return false;
    }
    res.writeHead(204, {
      'Access-Control-Allow-Methods': ALLOW_METHODS,
      'Access-Control-Allow-Headers': ALLOW_HEADERS,
      'Access-Control-Max-Age': String(PREFLIGHT_MAX_AGE),
      'Content-Length': '0',
    });
    res.end();
    return true;
  }
}

/** CITY_CORS_ORIGINS, comma-separated; unset or empty: CORS off. */
export function corsPolicyFromEnv(env: NodeJS.ProcessEnv): CorsPolicy {
  return new CorsPolicy(listFromEnv(env.CITY_CORS_ORIGINS));
}
