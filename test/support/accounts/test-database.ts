/**
 * Which account store the e2e tests run on: SQLite files (the default) or, with
 * `CITY_TEST_DATABASE=postgres`, PostgreSQL — one throw-away cluster per test process
 * (test/support/postgres.ts) and a fresh database for every service or app a test starts.
 * `npm run test:e2e:postgres` runs the account, credit and admission tests this way.
 */
import { openAccountStore, type AccountStore, type AccountStoreOptions } from '../../../src/accounts/index.ts';
import { startTestPostgres, type TestPostgres } from '../postgres.ts';

export const TEST_DATABASE: 'sqlite' | 'postgres' = process.env.CITY_TEST_DATABASE === 'postgres' ? 'postgres' : 'sqlite';
export const onPostgres = TEST_DATABASE === 'postgres';

let cluster: Promise<TestPostgres> | null = null;

/** The process's cluster, started on first use (stopped when the process exits). */
export function testCluster(): Promise<TestPostgres> {
  cluster ??= startTestPostgres();
  return cluster;
}

/** A new empty database's URL on PostgreSQL runs; null on SQLite runs (the store is the data directory's file). */
export async function testDatabaseUrl(): Promise<string | null> {
  if (!onPostgres) return null;
  return (await testCluster()).createDatabase();
}

/** Opens a store at `location`: a postgres:// URL or an SQLite file path. */
export function openTestAccounts(location: string, options: AccountStoreOptions = {}): Promise<AccountStore> {
  const databaseUrl = /^postgres(ql)?:\/\//.test(location) ? location : null;
  return openAccountStore({ databaseUrl, sqlitePath: location }, options);
}
