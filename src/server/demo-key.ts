/**
 * `GET /v1/demo-key`: the demo account's key for the page to fill in, answered only to a browser on
 * the same machine as the service, on the embedded install that made a demo account (its key file
 * is in the data directory and the key still works). Anyone else gets the same 404 as for a path
 * that does not exist, so the route gives away nothing. A request that came through a proxy (a
 * trusted proxy's address, or any forwarding header) is not "the same machine", even when the
 * proxy runs there: it forwards everybody.
 */
import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError } from '../contract/errors.ts';
import type { AccountStore } from '../accounts/index.ts';
import { sendJson } from './send.ts';
import type { TrustedProxies } from './trusted-proxies.ts';

export const DEMO_KEY_PATH = '/v1/demo-key';

const FORWARDING_HEADERS = ['x-forwarded-for', 'x-forwarded-host', 'x-forwarded-proto', 'forwarded', 'x-real-ip', 'via'];

export interface DemoKeyOptions {
  /** `<dataDir>/demo-key.txt`, written when the install made its demo account. */
  keyFile: string;
  accounts: AccountStore;
  trustedProxies?: TrustedProxies;
}

/** True for 127.0.0.0/8 and ::1, plain or IPv4-mapped. */
export function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  const plain = address.startsWith('::ffff:') ? address.slice(7) : address;
  return plain === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(plain);
}

export async function serveDemoKey(req: IncomingMessage, res: ServerResponse, options: DemoKeyOptions): Promise<void> {
  if (req.method !== 'GET') throw new ApiError('method_not_allowed', 'This resource only answers GET.', [], { Allow: 'GET' });
  const key = await demoKeyFor(req, options);
  if (!key) throw new ApiError('not_found', `There is no resource at ${DEMO_KEY_PATH}; the service answers POST /v1/context.`);
  sendJson(res, 200, { key }, { 'cache-control': 'no-store' });
}

async function demoKeyFor(req: IncomingMessage, { keyFile, accounts, trustedProxies }: DemoKeyOptions): Promise<string | null> {
  const peer = req.socket.remoteAddress;
  if (!isLoopback(peer) || trustedProxies?.trusts(peer)) return null;
  if (FORWARDING_HEADERS.some((h) => req.headers[h] !== undefined)) return null;
  let key: string;
  try {
    key = readFileSync(keyFile, 'utf8').trim();
  } catch {
    return null; // no demo account on this install
  }
  try {
    await accounts.authenticate(`Bearer ${key}`); // revoked or deactivated: not offered
  } catch {
    return null;
  }
  return key;
}
