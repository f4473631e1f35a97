/**
 * Two API processes on one PostgreSQL database (a throw-away cluster): the ledger stays exact under
 * concurrent requests through both, and a node killed with SIGKILL mid-request has its hold
 * released by the other once its lease lapses, while the other keeps serving. Each node is the
 * real HTTP app and account store in its own process, with a stand-in tile pool that takes
 * `delayMs` per tile (test/support/service/fake-app.ts); the lease comes from CITY_LEASE_TTL_MS.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { after, before, test } from 'node:test';
import { PostgresAccountStore, type AccountStore } from '../../src/accounts/index.ts';
import { testCluster } from '../support/accounts/test-database.ts';
import { smallBody } from '../support/service/fake-app.ts';
import { postContext } from '../support/service/http.ts';
import { eventually } from '../support/service/raw-http.ts';

const LEASE_MS = 1500;
const children: ChildProcess[] = [];
let url: string;
let store: AccountStore;

before(async () => {
  url = await (await testCluster()).createDatabase();
  // The test's own view of the database: it never sweeps, so what is released, a node released.
  store = await PostgresAccountStore.open(url, { releaseStale: false, staleSweepMs: 0 });
});
after(async () => {
  for (const c of children) c.kill('SIGKILL');
  await store?.close();
});

/** An API node in its own process on the shared database; resolves with its base URL once it listens. */
async function startNode(delayMs: number): Promise<{ child: ChildProcess; base: string }> {
  const module = (path: string) => JSON.stringify(fileURLToPath(new URL(path, import.meta.url)));
  const source = `
    import { loadConfig } from ${module('../../src/config.ts')};
    import { Admission } from ${module('../../src/server/admission.ts')};
    import { startFakeApp } from ${module('../support/service/fake-app.ts')};
    const config = loadConfig(process.env);
    const app = await startFakeApp({
      accountsPath: config.databaseUrl,
      accounts: { leaseTtlMs: config.leaseTtlMs },
      delayMs: ${delayMs},
      admission: new Admission({ maxInFlight: 32, maxQueue: 64, timeoutMs: 60_000 }),
    });
    console.log('listening ' + app.url);
    setInterval(() => {}, 1000);
  `;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', source], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, CITY_DATABASE_URL: url, CITY_LEASE_TTL_MS: String(LEASE_MS) },
  });
  children.push(child);
  const lines = createInterface({ input: child.stdout! });
  const base = await new Promise<string>((ok, fail) => {
    lines.on('line', (line) => line.startsWith('listening ') && ok(line.slice('listening '.length)));
    child.once('exit', (code) => fail(new Error(`the node exited early (${code})`)));
  });
  return { child, base };
}

async function newKey(balanceKm2: number): Promise<{ accountId: number; key: string }> {
  const account = await store.createAccount({ name: `n${Math.random()}`, balanceKm2 });
  return { accountId: account.id, key: (await store.createKey(account.id, 'production')).key };
}

const m2 = (km2: number) => Math.round(km2 * 1e6);

test('20 concurrent requests per node against a balance for 13: 13 answered and charged once each, the rest refused, the ledger exact', async () => {
  const [a, b] = await Promise.all([startNode(300), startNode(300)]);
  try {
    const { accountId, key } = await newKey(0.13); // each small request costs the minimum, 0.01 km²
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => postContext(i % 2 ? a.base : b.base, key, smallBody())));
    const ok = answers.filter((r) => r.status === 200);
    const refused = answers.filter((r) => r.status === 402);
    assert.equal(ok.length, 13, `answered: ${answers.map((r) => r.status).join(',')}`);
    assert.equal(refused.length, 27);
    for (const r of refused) assert.equal(r.json.code, 'insufficient_balance');
    for (const r of ok) assert.equal(r.headers['x-cost-km2'], '0.0100');

    const rows = await store.usage(accountId, { limit: 100 });
    const account = (await store.getAccount(accountId))!;
    assert.deepEqual(
      rows.map((r) => [r.status, m2(r.costKm2)]),
      Array.from({ length: 13 }, () => ['completed', 10_000]),
      'one completed row per answer, nothing else',
    );
    assert.deepEqual([m2(account.balanceKm2), m2(account.reservedKm2)], [0, 0], 'all spent, nothing held, never below 0');
  } finally {
    a.child.kill('SIGKILL');
    b.child.kill('SIGKILL');
  }
});

test('a node killed with SIGKILL mid-request: its hold stays while its lease runs, then the other node releases it, uncharged, and keeps serving', async () => {
  const [slow, other] = await Promise.all([startNode(60_000), startNode(100)]);
  try {
    const { accountId, key } = await newKey(0.03);
    const cut = postContext(slow.base, key, smallBody()).catch((err: Error) => err);
    await eventually(async () => (await store.getAccount(accountId))!.reservedKm2 > 0, 'the slow node holds the cost');
    // Alive: the other node's sweeps (every third of the lease) leave the hold alone.
    await new Promise((r) => setTimeout(r, 2 * LEASE_MS));
    assert.equal((await store.getAccount(accountId))!.reservedKm2, 0.01, "a live node's hold is never released");

    slow.child.kill('SIGKILL');
    await once(slow.child, 'exit');
    assert.ok((await cut) instanceof Error, 'the client of the killed node got no answer');
    // The other node serves the account at once from what is not held.
    const served = await postContext(other.base, key, smallBody());
    assert.equal(served.status, 200);
    await eventually(async () => (await store.getAccount(accountId))!.reservedKm2 === 0, 'the lapsed hold is released', 10 * LEASE_MS);

    const rows = await store.usage(accountId);
    assert.deepEqual(rows.map((r) => [r.status, m2(r.costKm2)]).sort(), [
      ['aborted', 0],
      ['completed', 10_000],
    ]);
    assert.equal(m2((await store.getAccount(accountId))!.balanceKm2), 20_000, 'charged once, for the answer that was served');
    // what the killed node held is available again
    assert.equal((await postContext(other.base, key, smallBody())).status, 200);
    assert.equal(m2((await store.getAccount(accountId))!.balanceKm2), 10_000);
  } finally {
    slow.child.kill('SIGKILL');
    other.child.kill('SIGKILL');
  }
});
