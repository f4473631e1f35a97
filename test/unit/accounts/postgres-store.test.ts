/**
 * The account store contract (test/support/accounts/account-store-suite.ts) on a real PostgreSQL 15
 * (a throw-away cluster, test/support/postgres.ts), each test on its own database; and what only
 * PostgreSQL has: versioned migrations in a table.
 */
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import pg from 'pg';
import { PostgresAccountStore } from '../../../src/accounts/index.ts';
import { ApiError } from '../../../src/contract/errors.ts';
import { PG_MIGRATIONS } from '../../../src/accounts/postgres-schema.ts';
import { accountStoreSuite } from '../../support/accounts/account-store-suite.ts';
import { startTestPostgres, type TestPostgres } from '../../support/postgres.ts';

let cluster: TestPostgres;
before(async () => {
  cluster = await startTestPostgres();
});
after(() => cluster?.stop());

accountStoreSuite('postgres', {
  fresh: () => cluster.createDatabase(),
  open: (url, options) => PostgresAccountStore.open(url, options),
  propertyRuns: 40,
});

async function sql(url: string, text: string): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await client.query(text);
  } finally {
    await client.end();
  }
}

it('postgres: records each schema version once, however many nodes open the database together', async () => {
  const url = await cluster.createDatabase();
  const stores = await Promise.all([1, 2, 3, 4].map(() => PostgresAccountStore.open(url)));
  for (const s of stores) await s.close();
  const { rows } = await sql(url, 'SELECT version FROM accounts_schema_version ORDER BY version');
  assert.deepEqual(
    rows.map((r) => r.version),
    PG_MIGRATIONS.map((_, i) => i + 1),
  );
});

it('postgres: refuses a database whose schema is newer than this program', async () => {
  const url = await cluster.createDatabase();
  await (await PostgresAccountStore.open(url)).close();
  await sql(url, `INSERT INTO accounts_schema_version (version) VALUES (${PG_MIGRATIONS.length + 1})`);
  await assert.rejects(PostgresAccountStore.open(url), /newer than this program/);
});

it('postgres: the schema itself refuses to hold more than the balance', async () => {
  const url = await cluster.createDatabase();
  await (await PostgresAccountStore.open(url)).close();
  await sql(url, "INSERT INTO accounts (id, name, status, balance_m2, created_at) VALUES (1, 'a', 'active', 100, now())");
  await assert.rejects(sql(url, 'UPDATE accounts SET reserved_m2 = 101 WHERE id = 1'), /check constraint/);
  await assert.rejects(sql(url, 'UPDATE accounts SET balance_m2 = -1 WHERE id = 1'), /check constraint/);
});

it('postgres: a hold whose settle failed while the database was away is released, uncharged, by its own node once it is back', async () => {
  const url = await cluster.createDatabase();
  const store = await PostgresAccountStore.open(url, { staleSweepMs: 0 });
  try {
    const account = await store.createAccount({ name: 'outage', balanceKm2: 10 });
    const { key } = await store.createKey(account.id);
    const auth = await store.authenticate(key);
    const held = await store.reserve(auth, 1);
    const other = await store.reserve(auth, 2);
    assert.equal(await store.reachable(), true);
    cluster.stopServer();
    try {
      assert.equal(await store.reachable(), false);
      await assert.rejects(held.commit());
      // requests meanwhile hear 503 with Retry-After, not 500
      for (const attempt of [() => store.authenticate(key), () => store.assertCanPay(auth), () => store.reserve(auth, 1)]) {
        await assert.rejects(attempt(), (err: unknown) => err instanceof ApiError && err.code === 'server_busy' && err.headers['Retry-After'] === '5');
      }
      assert.equal(await held.commit(), false, 'settled once from here on, whatever the database said');
    } finally {
      cluster.startServer();
    }
    assert.equal(await store.reachable(), true, 'reconnected');
    // its own lease keeps it from everyone else's sweeps; this node's sweep lets it go
    assert.equal(await store.releaseStaleReservations(), 1);
    const after = (await store.getAccount(account.id))!;
    assert.deepEqual([after.balanceKm2, after.reservedKm2], [10, 2], 'the other hold, still in flight, stays');
    assert.deepEqual(
      (await store.usage(account.id)).map((r) => [r.status, r.costKm2]),
      [
        ['reserved', 0],
        ['aborted', 0],
      ],
    );
    assert.equal(await other.commit(), true);
    assert.equal(await store.releaseStaleReservations(), 0);
  } finally {
    await store.close();
  }
});
