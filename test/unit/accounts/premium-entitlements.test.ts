/** Premium entitlements in the accounts file: grant, revoke, list, checked names, and the schema step that adds them. */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import Database from 'better-sqlite3';
import { AccountStore, AccountStoreError } from '../../../src/accounts/index.ts';
import { MIGRATIONS, migrate } from '../../../src/accounts/db.ts';

const listed = (store: AccountStore, id: number) => store.premiumEntitlements(id).map((e) => `${e.kind} ${e.value}`);

it('grants datasets and countries, lists datasets first, and grants twice as once', () => {
  const store = AccountStore.open(':memory:', { staleSweepMs: 0 });
  const a = store.createAccount({ name: 'a', balanceKm2: 1 });
  const b = store.createAccount({ name: 'b', balanceKm2: 1 });
  store.grantPremium(a.id, { kind: 'country', value: ' de-be ' });
  store.grantPremium(a.id, { kind: 'dataset', value: 'zurich-sample' });
  const first = store.premiumEntitlements(a.id)[0].grantedAt;
  store.grantPremium(a.id, { kind: 'dataset', value: 'zurich-sample' });
  store.grantPremium(a.id, { kind: 'country', value: 'CH' });
  assert.deepEqual(listed(store, a.id), ['dataset zurich-sample', 'country CH', 'country DE-BE']);
  assert.equal(store.premiumEntitlements(a.id)[0].grantedAt, first);
  assert.deepEqual(listed(store, b.id), [], 'grants are per account');

  // revoking is exact: DE is not held, DE-BE is
  assert.throws(() => store.revokePremium(a.id, { kind: 'country', value: 'DE' }), AccountStoreError);
  assert.deepEqual(
    store.revokePremium(a.id, { kind: 'country', value: 'de-be' }).map((e) => e.value),
    ['zurich-sample', 'CH'],
  );
  store.close();
});

it('refuses malformed codes and ids, and unknown accounts', () => {
  const store = AccountStore.open(':memory:', { staleSweepMs: 0 });
  const a = store.createAccount({ name: 'a', balanceKm2: 1 });
  for (const value of ['DEU', 'D', 'DE-', 'DE-BERL', '12']) {
    assert.throws(() => store.grantPremium(a.id, { kind: 'country', value }), AccountStoreError, value);
  }
  for (const value of ['', 'a b', '-x', 'x'.repeat(65)]) {
    assert.throws(() => store.grantPremium(a.id, { kind: 'dataset', value }), AccountStoreError, value);
  }
  assert.throws(() => store.grantPremium(a.id, { kind: 'region' as 'country', value: 'CH' }), AccountStoreError);
  assert.throws(() => store.grantPremium(a.id + 1, { kind: 'country', value: 'CH' }), /No account/);
  assert.deepEqual(listed(store, a.id), []);
  store.close();
});

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
