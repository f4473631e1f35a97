/**
 * The demo key goes to a browser on the service's own machine only: loopback peer, no proxy in
 * between, a demo account made by this install whose key still works. Everyone else gets the 404
 * of a path that does not exist. Real account store; the peer address is the socket's.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { SqliteAccountStore, ensureDemoAccount, type AccountStore } from '../../../src/accounts/index.ts';
import { isLoopback, serveDemoKey } from '../../../src/server/demo-key.ts';
import { TrustedProxies } from '../../../src/server/trusted-proxies.ts';

const dir = mkdtempSync(join(tmpdir(), 'cc-demo-key-'));
let accounts: AccountStore;
let key: string;
before(async () => {
  accounts = await SqliteAccountStore.open(join(dir, 'accounts.sqlite'));
  key = (await ensureDemoAccount(accounts, dir))!.key;
});
after(async () => {
  await accounts.close();
  rmSync(dir, { recursive: true, force: true });
});

/** What the route answers a GET from `address` with `headers`: the key, or the error code. */
async function ask(address: string, headers: Record<string, string> = {}, options: { keyFile?: string; trusted?: string[] } = {}): Promise<string> {
  const req = { method: 'GET', headers, socket: { remoteAddress: address } } as never;
  let body = '';
  const res = { writeHead() {}, end: (text: string) => (body = text) } as never;
  try {
    await serveDemoKey(req, res, {
      keyFile: options.keyFile ?? join(dir, 'demo-key.txt'),
      accounts,
      trustedProxies: new TrustedProxies(options.trusted ?? []),
    });
    return JSON.parse(body).key;
  } catch (err) {
    return (err as { code: string }).code;
  }
}

test('a browser on this machine gets the demo key, over IPv4, IPv6 and IPv4-mapped loopback', async () => {
  for (const address of ['127.0.0.1', '::1', '::ffff:127.0.0.1', '127.3.2.1']) assert.equal(await ask(address), key, address);
});

test('nobody else does: another address, a proxy (trusted or only forwarding), an install without a demo key file', async () => {
  for (const address of ['192.168.1.20', '10.0.0.1', '::ffff:192.168.1.20', 'fe80::1', '2001:db8::1']) assert.equal(await ask(address), 'not_found', address);
  for (const header of ['x-forwarded-for', 'forwarded', 'x-real-ip', 'via', 'x-forwarded-host']) {
    assert.equal(await ask('127.0.0.1', { [header]: '203.0.113.5' }), 'not_found', header);
  }
  assert.equal(await ask('127.0.0.1', {}, { trusted: ['127.0.0.1'] }), 'not_found', 'a trusted proxy on this machine forwards everybody');
  assert.equal(await ask('127.0.0.1', {}, { keyFile: join(dir, 'missing.txt') }), 'not_found');
  assert.equal(isLoopback(undefined), false);
});

test('a revoked demo key is not offered', async () => {
  const other = join(dir, 'other-key.txt');
  const account = await accounts.createAccount({ name: 'x', balanceKm2: 1 });
  const created = await accounts.createKey(account.id);
  writeFileSync(other, `${created.key}\n`);
  assert.equal(await ask('127.0.0.1', {}, { keyFile: other }), created.key);
  await accounts.revokeKey(created.keyId);
  assert.equal(await ask('127.0.0.1', {}, { keyFile: other }), 'not_found');
});
