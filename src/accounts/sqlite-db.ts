/**
 * The SQLite file behind the account store: opening it (WAL, foreign keys, busy timeout so two
 * processes can share it) and bringing its schema up to date with `PRAGMA user_version`.
 */
import Database from 'better-sqlite3';
import { closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';

export type Db = Database.Database;

/**
 * Schema steps, applied in order; `user_version` counts how many have run. Append only:
 * never edit a step that has shipped.
 * Amounts are INTEGER square metres (see units.ts); timestamps are ISO-8601 UTC text.
 */
export const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE accounts (
    id          INTEGER PRIMARY KEY,
    name        TEXT    NOT NULL,
    status      TEXT    NOT NULL CHECK (status IN ('active', 'inactive')),
    balance_m2  INTEGER NOT NULL CHECK (balance_m2 >= 0),
    reserved_m2 INTEGER NOT NULL DEFAULT 0 CHECK (reserved_m2 >= 0 AND reserved_m2 <= balance_m2),
    created_at  TEXT    NOT NULL
  );
  CREATE TABLE api_keys (
    id           INTEGER PRIMARY KEY,
    account_id   INTEGER NOT NULL REFERENCES accounts(id),
    kind         TEXT    NOT NULL CHECK (kind IN ('development', 'production')),
    prefix       TEXT    NOT NULL UNIQUE,
    key_hash     BLOB    NOT NULL UNIQUE,
    created_at   TEXT    NOT NULL,
    revoked_at   TEXT,
    last_used_at TEXT
  );
  CREATE INDEX api_keys_account ON api_keys(account_id);
  CREATE TABLE usage_ledger (
    id          INTEGER PRIMARY KEY,
    key_id      INTEGER NOT NULL REFERENCES api_keys(id),
    account_id  INTEGER NOT NULL REFERENCES accounts(id),
    area_m2     INTEGER NOT NULL CHECK (area_m2 >= 0),
    reserved_m2 INTEGER NOT NULL CHECK (reserved_m2 > 0),
    cost_m2     INTEGER NOT NULL DEFAULT 0 CHECK (cost_m2 >= 0),
    status      TEXT    NOT NULL CHECK (status IN ('reserved', 'completed', 'failed', 'aborted')),
    started_at  TEXT    NOT NULL,
    finished_at TEXT,
    CHECK (status = 'completed' OR cost_m2 = 0)
  );
  CREATE INDEX usage_ledger_account ON usage_ledger(account_id, id);
  CREATE INDEX usage_ledger_open ON usage_ledger(status) WHERE status = 'reserved';
  `,
  // A reservation names the process that holds it; processes hold renewed leases (lease.ts).
  `
  CREATE TABLE ledger_owners (
    owner      TEXT PRIMARY KEY,
    pid        INTEGER NOT NULL,
    host       TEXT    NOT NULL,
    started_at TEXT    NOT NULL,
    expires_at TEXT    NOT NULL
  );
  ALTER TABLE usage_ledger ADD COLUMN owner TEXT;
  `,
  // Premium building entitlements (premium-entitlements.ts): a dataset id, or a country/region code
  // that covers its ISO 3166-2 subdivisions.
  `
  CREATE TABLE premium_entitlements (
    account_id INTEGER NOT NULL REFERENCES accounts(id),
    kind       TEXT    NOT NULL CHECK (kind IN ('dataset', 'country')),
    value      TEXT    NOT NULL,
    granted_at TEXT    NOT NULL,
    PRIMARY KEY (account_id, kind, value)
  );
  `,
  // Each request reserves under its own id, once: whichever process serves it, it is charged once.
  `
  ALTER TABLE usage_ledger ADD COLUMN request_id TEXT;
  CREATE UNIQUE INDEX usage_ledger_request ON usage_ledger(request_id);
  `,
];

/** Runs the steps the file has not seen yet, each in its own transaction. Returns the new version. */
export function migrate(db: Db): number {
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > MIGRATIONS.length) {
    throw new Error(`accounts database is at schema version ${current}, newer than this program knows (${MIGRATIONS.length})`);
  }
  for (let version = current; version < MIGRATIONS.length; version++) {
    // IMMEDIATE takes the write lock first, so two processes starting together do not both migrate.
    db.transaction(() => {
      const seen = db.pragma('user_version', { simple: true }) as number;
      if (seen !== version) return; // another process got here first
      db.exec(MIGRATIONS[version]!);
      db.pragma(`user_version = ${version + 1}`);
    }).immediate();
  }
  return db.pragma('user_version', { simple: true }) as number;
}

export interface OpenDatabaseOptions {
  /** How long a writer waits for another process's lock before failing, ms. */
  busyTimeoutMs?: number;
}

/** Opens (creating if needed) the database file and migrates it. `:memory:` works for tests. */
export function openDatabase(path: string, options: OpenDatabaseOptions = {}): Db {
  if (path !== ':memory:') {
    // Keys' hashes and balances: readable by the service's user only (SQLite gives -wal/-shm the same mode).
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    if (!existsSync(path)) closeSync(openSync(path, 'a', 0o600));
  }
  const db = new Database(path, { timeout: options.busyTimeoutMs ?? 5000 });
  try {
    db.pragma('journal_mode = WAL');
    // NORMAL is durable across process crashes in WAL mode (only an OS crash can lose the last commits).
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    migrate(db);
  } catch (err) {
    db.close();
    throw err;
  }
  return db;
}
