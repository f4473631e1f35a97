/**
 * The reverse proxies in front of the service (CITY_TRUSTED_PROXIES: addresses and CIDR ranges,
 * comma-separated). Only a connection from one of them may tell the service, through
 * `X-Forwarded-Host` and `X-Forwarded-Proto`, how clients reached it; and all its connections
 * share one address, so it is exempt from the per-address connection limit.
 */
import { BlockList, isIP } from 'node:net';

export class TrustedProxies {
  readonly #list = new BlockList();
  readonly entries: readonly string[];

  /** `entries`: addresses (`10.0.0.5`, `::1`) and ranges (`10.0.0.0/8`, `fd00::/8`); a malformed one throws. */
  constructor(entries: readonly string[] = []) {
    this.entries = entries;
    for (const entry of entries) {
      const [address, prefix, extra] = entry.split('/');
      const family = isIP(address);
      if (family === 0 || extra !== undefined) throw new Error(`CITY_TRUSTED_PROXIES: not an IP address or CIDR range: ${entry}`);
      const type = family === 4 ? 'ipv4' : 'ipv6';
      if (prefix === undefined) {
        this.#list.addAddress(address, type);
        continue;
      }
      const bits = Number(prefix);
      if (!/^\d+$/.test(prefix) || bits > (family === 4 ? 32 : 128)) throw new Error(`CITY_TRUSTED_PROXIES: bad prefix length in ${entry}`);
      this.#list.addSubnet(address, bits, type);
    }
  }

  /** True when the peer `address` (as a socket reports it, IPv4-mapped or not) is a trusted proxy. */
  trusts(address: string | undefined): boolean {
    if (!address || this.entries.length === 0) return false;
    const plain = unmapIpv4(address);
    return this.#list.check(plain, isIP(plain) === 4 ? 'ipv4' : 'ipv6');
  }
}

/** CITY_TRUSTED_PROXIES, comma-separated; none when unset. */
export function trustedProxiesFromEnv(env: NodeJS.ProcessEnv): TrustedProxies {
  return new TrustedProxies(listFromEnv(env.CITY_TRUSTED_PROXIES));
}

/** A comma-separated setting as its trimmed, non-empty entries. */
export function listFromEnv(raw: string | undefined): string[] {
  return (raw ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

/** `::ffff:1.2.3.4` (how a dual-stack socket reports an IPv4 peer) as `1.2.3.4`. */
export function unmapIpv4(address: string): string {
  const m = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return m ? m[1] : address;
}
