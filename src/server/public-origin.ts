/**
 * The origin (`scheme://host[:port]`) that links handed to clients start with. Never the
 * request's `Host` header: anyone can send `Host: evil.example`, and a link built from it would
 * send the file's reader (and the token in the URL) elsewhere. In order:
 * 1. CITY_PUBLIC_BASE_URL when set;
 * 2. `X-Forwarded-Proto` and `X-Forwarded-Host` when the connection comes from a trusted proxy
 *    (CITY_TRUSTED_PROXIES) — the last value of each, the one that proxy wrote itself;
 * 3. the address and port the connection reached (the listening socket's own).
 */
import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';
import { type TrustedProxies, unmapIpv4 } from './trusted-proxies.ts';

export interface OriginSettings {
  publicBaseUrl?: string | null;
  trustedProxies?: TrustedProxies;
}

export function publicOrigin(req: IncomingMessage, settings: OriginSettings): string {
  if (settings.publicBaseUrl) return settings.publicBaseUrl.replace(/\/+$/, '');
  const tls = (req.socket as { encrypted?: boolean }).encrypted === true;
  if (settings.trustedProxies?.trusts(req.socket.remoteAddress)) {
    const host = lastValue(req.headers['x-forwarded-host']);
    const proto = lastValue(req.headers['x-forwarded-proto'])?.toLowerCase();
    if (host && isHostAndPort(host)) return `${proto === 'https' || proto === 'http' ? proto : tls ? 'https' : 'http'}://${host}`;
  }
  return `${tls ? 'https' : 'http'}://${listeningAddress(req)}`;
}

/** The address and port the client connected to, bracketed when IPv6. */
function listeningAddress(req: IncomingMessage): string {
  const address = unmapIpv4(req.socket.localAddress ?? '127.0.0.1');
  return `${isIP(address) === 6 ? `[${address}]` : address}:${req.socket.localPort}`;
}

/** The last of a comma-separated header's values (a proxy appends its own), or undefined. */
function lastValue(header: string | string[] | undefined): string | undefined {
  const joined = Array.isArray(header) ? header.join(',') : header;
  const value = joined?.split(',').at(-1)?.trim();
  return value || undefined;
}

/** A host name or address with an optional port, nothing else (no path, user or spaces). */
function isHostAndPort(value: string): boolean {
  return /^(?:[A-Za-z0-9](?:[A-Za-z0-9.-]{0,251}[A-Za-z0-9])?|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/.test(value);
}
