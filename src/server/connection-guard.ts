/**
 * Connections before their first request (docs/operations.md "Limits and abuse", "Connections"):
 * - at most `maxConnectionsPerAddress` open from one client address (an IPv6 client counts per
 *   /64, the block one host is usually given), trusted proxies exempt: past it the newcomer is
 *   closed. Without it, one client re-opening 520 sockets as they were closed held the whole cap;
 * - at most `maxConnections` open in all: at the cap the oldest connection that has not made a
 *   request yet is closed to make room, so a flood of sockets that never speak cannot lock out a
 *   client that does; when every open connection has made a request, the newcomer is closed;
 * - a connection that makes no request within `idleTimeoutMs` is closed: Node's header timeout
 *   only starts with the first byte, so a socket that never sends one would stay open for good.
 * From the first request on, Node's header, request and keep-alive timeouts take over.
 */
import { isIP, type Socket } from 'node:net';
import { type TrustedProxies, unmapIpv4 } from './trusted-proxies.ts';

export interface ConnectionGuardOptions {
  maxConnections: number;
  maxConnectionsPerAddress: number;
  idleTimeoutMs: number;
  trustedProxies?: TrustedProxies;
}

export class ConnectionGuard {
  #open = 0;
  readonly #perAddress = new Map<string, number>();
  /** The address key of every counted socket. */
  readonly #keys = new WeakMap<Socket, string>();
  /** Sockets that have not made a request yet, oldest first, with their idle timers. */
  readonly #fresh = new Map<Socket, NodeJS.Timeout>();

  constructor(private readonly options: ConnectionGuardOptions) {}

  get open(): number {
    return this.#open;
  }

  /** Takes a new connection in, or closes it (or, at the cap, the oldest one not yet used). */
  admit(socket: Socket): void {
    const key = addressKey(socket.remoteAddress);
    const exempt = this.options.trustedProxies?.trusts(socket.remoteAddress) === true;
    if (!exempt && (this.#perAddress.get(key) ?? 0) >= this.options.maxConnectionsPerAddress) {
      socket.destroy();
      return;
    }
    if (this.#open >= this.options.maxConnections) {
      const oldest = this.#fresh.keys().next();
      if (oldest.done) {
        socket.destroy();
        return;
      }
      this.#forget(oldest.value);
      oldest.value.destroy();
    }
    this.#open++;
    this.#perAddress.set(key, (this.#perAddress.get(key) ?? 0) + 1);
    this.#keys.set(socket, key);
    const timer = setTimeout(() => socket.destroy(), this.options.idleTimeoutMs);
    timer.unref();
    this.#fresh.set(socket, timer);
    socket.once('close', () => this.#forget(socket));
  }

  /** The connection made a request: it is no longer idle, nor the first to go at the cap. */
  used(socket: Socket): void {
    const timer = this.#fresh.get(socket);
    if (timer === undefined) return;
    clearTimeout(timer);
    this.#fresh.delete(socket);
  }

  #forget(socket: Socket): void {
    const key = this.#keys.get(socket);
    if (key === undefined) return;
    this.used(socket);
    this.#keys.delete(socket);
    this.#open--;
    const n = (this.#perAddress.get(key) ?? 1) - 1;
    if (n > 0) this.#perAddress.set(key, n);
    else this.#perAddress.delete(key);
  }
}

/** What a client's connections are counted under: its IPv4 address, or its IPv6 /64. */
export function addressKey(address: string | undefined): string {
  const plain = unmapIpv4((address ?? '').split('%')[0]);
  if (isIP(plain) !== 6) return plain;
  const [head, tail] = plain.split('::');
  const front = head ? head.split(':') : [];
  const back = tail === undefined ? [] : tail ? tail.split(':') : [];
  const groups = tail === undefined ? front : [...front, ...Array(Math.max(0, 8 - front.length - back.length)).fill('0'), ...back];
  return `${groups
    .slice(0, 4)
    .map((g) => Number.parseInt(g || '0', 16).toString(16))
    .join(':')}::/64`;
}
