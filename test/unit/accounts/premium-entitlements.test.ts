/** The SQLite schema step that adds premium entitlements (granting and revoking: test/support/accounts/entitlements-suite.ts). */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import Database from 'better-sqlite3';
import { MIGRATIONS, migrate } from '../../../src/accounts/sqlite-db.ts';

it('a file of the previous schema gains the table and keeps its accounts', () => {
  const db = new Database(':memory:');
  db.pragma('foreign_keys = ON');
  for (const step of MIGRATIONS.slice(0, 2)) db.exec(step);
  db.pragma('user_version = 2');
  db.prepare("INSERT INTO accounts (name, status, balance_m2, created_at) VALUES ('old', 'active', 5, 'x')").run();
  assert.equal(migrate(db), MIGRATIONS.length);
  db.prepare("INSERT INTO premium_entitlements VALUES (1, 'dataset', 'zurich-sample', 'now')").run();
  assert.throws(() => db.prepare("INSERT INTO premium_entitlements VALUES (1, 'city', 'x', 'now')").run(), /CHECK/);
  assert.throws(() => db.prepare("INSERT INTO premium_entitlements VALUES (9, 'dataset', 'x', 'now')").run(), /FOREIGN KEY/);
  db.close();
});
