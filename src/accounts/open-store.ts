/** Picks the account store: PostgreSQL when a database URL is configured, else the SQLite file. */
import type { AccountStore, AccountStoreOptions } from './account-store.ts';
import { PostgresAccountStore } from './postgres-store.ts';
import { SqliteAccountStore } from './sqlite-store.ts';

/** Where the accounts live: a PostgreSQL URL wins; otherwise the SQLite file. */
export interface AccountStoreTarget {
  /** postgres://… (CITY_DATABASE_URL); null or empty: SQLite. */
  databaseUrl?: string | null;
  /** The SQLite file (`<dataDir>/accounts.sqlite`). */
  sqlitePath: string;
}

/** Opens (creating and migrating as needed) the store the target names. */
export async function openAccountStore(target: AccountStoreTarget, options: AccountStoreOptions = {}): Promise<AccountStore> {
  if (target.databaseUrl) {
    return PostgresAccountStore.open(target.databaseUrl, options);
  }
  return SqliteAccountStore.open(target.sqlitePath, options);
}
