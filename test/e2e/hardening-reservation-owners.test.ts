/**
 * A starting process must not release another live process's reservations. Only the holds of
 * owners that are gone (expired lease, or — SQLite on one box — a process that no longer exists)
 * are released. The first three run on either store (CITY_TEST_DATABASE); the process-id fast path
 * is SQLite's alone (PostgreSQL's killed node: test/e2e/postgres-two-nodes.test.ts).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'undici';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { SqliteAccountStore } from '../../src/accounts/index.ts';
import { onPostgres, openTestAccounts, testDatabaseUrl } from '../support/accounts/test-database.ts';
import { loadConfig, storePaths } from '../../src/config.ts';
import { startService } from '../../src/service.ts';
import { startFakeApp, smallBody } from '../support/service/fake-app.ts';
import { eventually } from '../support/service/raw-http.ts';
import { readyChild } from '../support/service/ready-child.ts';

test("a second process opening the same accounts file leaves the first one's in-flight hold alone", async () => {
  const app = await startFakeApp({ delayMs: 800 });
  try {
    const { accountId, key } = await app.newKey(0.01); // pays for exactly one small request
    const answer = request(`${app.url}/v1/context`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(smallBody()),
    });
    await eventually(async () => (await app.accounts.getAccount(accountId))!.reservedKm2 > 0, 'the request holds its cost');

    const second = await openTestAccounts(app.accountsPath); // what a second server does at start-up
    try {
      assert.equal(await second.releaseStaleReservations(), 0);
      const held = (await second.getAccount(accountId))!;
      assert.equal(held.reservedKm2, 0.01, 'the live hold survives');
      assert.equal((await second.usage(accountId))[0].status, 'reserved');
      // The balance stays spoken for: the second process cannot sell it again.
      await assert.rejects(async () => await second.reserve(await second.authenticate(key), 0.005), /remaining balance/);
    } finally {
      await second.close();
    }
    const res = await answer;
    assert.equal(res.statusCode, 200);
    await res.body.text();
    await eventually(async () => (await app.accounts.usage(accountId))[0].status === 'completed', 'the request is charged');
    assert.equal((await app.accounts.getAccount(accountId))!.balanceKm2, 0);
  } finally {
    await app.close();
  }
});

test('holds of a process whose lease lapsed are released, once, by the next process', async () => {
  const app = await startFakeApp({ accounts: { staleSweepMs: 0 } }); // only the explicit calls below release
  try {
    const { accountId, key } = await app.newKey(1);
    // A process that died: its clock (so its lease) is an hour behind.
    const dead = await openTestAccounts(app.accountsPath, { releaseStale: false, now: () => new Date(Date.now() - 3_600_000) });
    await dead.reserve(await dead.authenticate(key), 0.5);
    const live = await app.accounts.reserve(await app.accounts.authenticate(key), 0.2);
    const next = await openTestAccounts(app.accountsPath, { releaseStale: false });
    try {
      assert.equal(await next.releaseStaleReservations(), 1, "only the dead process's hold");
      assert.equal(await next.releaseStaleReservations(), 0);
      assert.equal((await next.getAccount(accountId))!.reservedKm2, 0.2);
      assert.equal(await live.commit(), true);
      assert.equal((await next.getAccount(accountId))!.balanceKm2, 0.8);
    } finally {
      await next.close();
      await dead.close();
    }
  } finally {
    await app.close();
  }
});

test("the service releases a dead process's holds at start and says so in its log, once", async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'cc-own-'));
  const databaseUrl = await testDatabaseUrl();
  const dead = await openTestAccounts(databaseUrl ?? storePaths(dataDir).accounts, { now: () => new Date(Date.now() - 3_600_000) });
  const account = await dead.createAccount({ name: 'left-over', balanceKm2: 1 });
  await dead.reserve(await dead.authenticate((await dead.createKey(account.id)).key), 0.5);
  await dead.close(); // its lease is gone with it; the hold stays in the file
  const lines: string[] = [];
  const config = { ...loadConfig({ CITY_DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1' }), databaseUrl, workers: 1, warmUpMs: 0, warmUpRequestsMs: 0 };
  const svc = await startService(config, (line) => lines.push(line));
  try {
    const released = lines.filter((l) => /^Released \d+ reservation/.test(l));
    assert.deepEqual(released, ['Released 1 reservation(s) held by processes that are gone (not charged).']);
    assert.equal((await svc.accounts.getAccount(account.id))!.reservedKm2, 0);
  } finally {
    await svc.close();
  }
});

/** A second process on the accounts file at `path` that holds `holds` reservations under `key` (its lease: 10 minutes) until killed. */
async function holdingProcess(path: string, key: string, holds: number[]): Promise<ChildProcess> {
  const storeModule = fileURLToPath(new URL('../../src/accounts/index.ts', import.meta.url));
  return readyChild(
    `
    import { SqliteAccountStore } from ${JSON.stringify(storeModule)};
    const store = await SqliteAccountStore.open(${JSON.stringify(path)}, { releaseStale: false, leaseTtlMs: 600000 });
    for (const km2 of ${JSON.stringify(holds)}) (await store.reserve((await store.authenticate(${JSON.stringify(key)})), km2));
    console.log('held');
  `,
    'held',
  );
}

const sqliteOnly = { skip: onPostgres && 'process ids are a one-box (SQLite) fast path' };

test('a process killed with SIGKILL mid-request: its hold is released by the next start at once, before its lease lapses', sqliteOnly, async () => {
  const path = join(mkdtempSync(join(tmpdir(), 'cc-kill-')), 'accounts.sqlite');
  const setup = await SqliteAccountStore.open(path, { releaseStale: false, staleSweepMs: 0 });
  const account = await setup.createAccount({ name: 'killed', balanceKm2: 1 });
  const key = (await setup.createKey(account.id)).key;
  const child = await holdingProcess(path, key, [0.4]);
  try {
    assert.equal((await setup.getAccount(account.id))!.reservedKm2, 0.4);
    assert.equal(await setup.releaseStaleReservations(), 0, 'alive: kept');
    child.kill('SIGKILL');
    await once(child, 'exit');
    assert.equal(await setup.releaseStaleReservations(), 1, 'its process is gone: released though its lease runs 10 more minutes');
    assert.equal((await setup.getAccount(account.id))!.reservedKm2, 0);
  } finally {
    child.kill('SIGKILL');
    await setup.close();
  }
});

test(
  'while two processes share the accounts file, one killed with SIGKILL: the other releases its holds by itself, within the lease time, and serves the account again',
  sqliteOnly,
  async () => {
    const lines: string[] = [];
    // The survivor's lease is 3 s, so it sweeps every second; the killed process's lease runs 10 minutes.
    const app = await startFakeApp({ accounts: { leaseTtlMs: 3000, onStaleReleased: (n) => lines.push(`released ${n}`) } });
    const { accountId, key } = await app.newKey(0.6);
    const child = await holdingProcess(app.accountsPath, key, [0.3, 0.3]);
    const ask = async () => {
      const res = await request(`${app.url}/v1/context`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify(smallBody()),
      });
      await res.body.text();
      return res.statusCode;
    };
    try {
      assert.equal((await app.accounts.getAccount(accountId))!.reservedKm2, 0.6);
      await new Promise((r) => setTimeout(r, 1500)); // a sweep or more passes: a live neighbour's holds stay
      assert.equal(await ask(), 402, 'the balance is held by the live neighbour');
      child.kill('SIGKILL');
      await once(child, 'exit');
      // No process starts: the survivor's own sweep must find the dead owner (well before its 10-minute lease lapses).
      await eventually(async () => (await ask()) === 200, 'the account is served again', 5000);
      assert.deepEqual(lines, ['released 2']);
      const rows = await app.accounts.usage(accountId);
      assert.deepEqual(rows.map((r) => r.status).sort(), ['aborted', 'aborted', 'completed']);
      assert.equal((await app.accounts.getAccount(accountId))!.balanceKm2, 0.59);
    } finally {
      child.kill('SIGKILL');
      await app.close();
    }
  },
);
