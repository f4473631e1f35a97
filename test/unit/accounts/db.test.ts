/** The accounts file: WAL, schema versioning, and refusing a file from a newer program. */
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, it } from 'node:test';
import { MIGRATIONS, openDatabase } from '../../../src/accounts/sqlite-db.ts';
import { SqliteAccountStore } from '../../../src/accounts/index.ts';

const dir = mkdtempSync(join(tmpdir(), 'cc-db-'));
after(() => rmSync(dir, { recursive: true, force: true }));

it('creates the schema at the latest version in WAL mode, creating parent folders', async () => {
  const path = join(dir, 'nested', 'deeper', 'accounts.sqlite');
  const db = openDatabase(path);
  assert.equal(db.pragma('user_version', { simple: true }), MIGRATIONS.length);
  assert.equal(db.pragma('journal_mode', { simple: true }), 'wal');
  assert.equal(db.pragma('foreign_keys', { simple: true }), 1);
  const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").pluck().all();
  assert.deepEqual(tables, ['accounts', 'api_keys', 'ledger_owners', 'premium_entitlements', 'usage_ledger']);
  db.close();
});

it('keeps data across reopening and does not migrate twice', async () => {
  const path = join(dir, 'reopen.sqlite');
  const first = await SqliteAccountStore.open(path);
  const account = await first.createAccount({ name: 'kept', balanceKm2: 7 });
  await first.close();
  const second = await SqliteAccountStore.open(path);
  assert.deepEqual((await second.getAccount(account.id))?.balanceKm2, 7);
  await second.close();
});

it('refuses a file whose schema is newer than this program', async () => {
  const path = join(dir, 'future.sqlite');
  openDatabase(path).close();
  const raw = new Database(path);
  raw.pragma(`user_version = ${MIGRATIONS.length + 1}`);
  raw.close();
  assert.throws(() => SqliteAccountStore.openNow(path), /newer than this program/);
});

it('enforces the money invariants in the schema itself', async () => {
  const db = openDatabase(':memory:');
  db.prepare("INSERT INTO accounts (id, name, status, balance_m2, created_at) VALUES (1, 'a', 'active', 100, 'now')").run();
  assert.throws(() => db.prepare('UPDATE accounts SET reserved_m2 = 101 WHERE id = 1').run(), /CHECK constraint/);
  assert.throws(() => db.prepare('UPDATE accounts SET balance_m2 = -1 WHERE id = 1').run(), /CHECK constraint/);
  await db.close();
});
