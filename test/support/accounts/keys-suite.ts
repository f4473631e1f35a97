/** API keys: format, creation, the authentication paths, revocation, last use: the account store contract (part of account-store-suite.ts) */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { AccountStoreError, type Account, type AccountStore, type CreatedKey } from '../../../src/accounts/index.ts';
import type { SuiteKit } from './account-store-suite.ts';

export function keysSuite(label: string, kit: SuiteKit): void {
  const { tempStore, assertUnauthorized } = kit;

  describe(`${label}: key format`, () => {
    it('has the kind tag, ≥128 random bits in base64url, and a short display prefix', async () => {
      const { store } = await tempStore();
      const account = await store.createAccount({ name: 'a', balanceKm2: 1 });
      const dev = await store.createKey(account.id, 'development');
      const live = await store.createKey(account.id, 'production');
      assert.match(dev.key, /^cc_dev_[A-Za-z0-9_-]{32}$/);
      assert.match(live.key, /^cc_live_[A-Za-z0-9_-]{32}$/);
      // 32 base64url characters carry 192 bits.
      assert.equal(Buffer.from(dev.key.slice('cc_dev_'.length), 'base64url').length, 24);
      assert.ok(dev.key.startsWith(dev.prefix) && dev.prefix.length < dev.key.length - 16);
      assert.notEqual(dev.key, live.key);
      assert.equal((await store.createKey(account.id)).kind, 'development', 'development is the default kind');
      await store.close();
    });

    it('refuses a key for an account that does not exist, or of an unknown kind', async () => {
      const { store } = await tempStore();
      await assert.rejects(async () => await store.createKey(42), AccountStoreError);
      const account = await store.createAccount({ name: 'a', balanceKm2: 1 });
      await assert.rejects(async () => await store.createKey(account.id, 'staging' as never), AccountStoreError);
      await store.close();
    });
  });

  describe(`${label}: authenticate`, () => {
    let store: AccountStore;
    let account: Account;
    let dev: CreatedKey;
    let live: CreatedKey;
    before(async () => {
      ({ store } = await tempStore());
      account = await store.createAccount({ name: 'acme', balanceKm2: 5 });
      dev = await store.createKey(account.id, 'development');
      live = await store.createKey(account.id, 'production');
    });
    after(() => store.close());

    it('accepts a live key as header value or bare key, and says whose it is', async () => {
      assert.deepEqual(await store.authenticate(`Bearer ${dev.key}`), { keyId: dev.keyId, accountId: account.id, kind: 'development' });
      assert.deepEqual(await store.authenticate(`bearer   ${live.key} `), { keyId: live.keyId, accountId: account.id, kind: 'production' });
      assert.deepEqual(await store.authenticate(live.key), { keyId: live.keyId, accountId: account.id, kind: 'production' });
    });

    it('rejects a missing key', async () => {
      for (const header of [undefined, null, '', '   ', 'Bearer', 'Bearer   ']) {
        await assertUnauthorized(async () => await store.authenticate(header), /required/);
      }
    });

    it('rejects malformed keys', async () => {
      for (const header of [
        'Bearer abc',
        `Basic ${dev.key}`,
        `Bearer ${dev.key}x`,
        `Bearer ${dev.key.slice(0, -1)}`,
        `Bearer cc_test_${dev.key.slice(7)}`,
        `Bearer ${dev.key} extra`,
      ]) {
        await assertUnauthorized(async () => await store.authenticate(header), /malformed/);
      }
    });

    it('rejects a well-formed key it never issued, also one sharing a real prefix', async () => {
      const forged = dev.prefix + 'A'.repeat(dev.key.length - dev.prefix.length);
      assert.notEqual(forged, dev.key);
      await assertUnauthorized(async () => await store.authenticate(`Bearer ${forged}`), /not valid/);
      await assertUnauthorized(async () => await store.authenticate(`Bearer cc_live_${'B'.repeat(32)}`), /not valid/);
      // The same random part under the other kind's tag is a different key.
      await assertUnauthorized(async () => await store.authenticate(`Bearer cc_live_${dev.key.slice('cc_dev_'.length)}`), /not valid/);
    });

    it('rejects a revoked key and keeps the others working', async () => {
      const { store: s } = await tempStore();
      const a = await s.createAccount({ name: 'r', balanceKm2: 1 });
      const k1 = await s.createKey(a.id);
      const k2 = await s.createKey(a.id);
      const k3 = await s.createKey(a.id);
      await s.authenticate(k1.key);
      const revoked = await s.revokeKey(k1.keyId);
      assert.ok(revoked.revokedAt);
      await assertUnauthorized(async () => await s.authenticate(`Bearer ${k1.key}`), /revoked/);
      // by display prefix, and by the full key (as when a key leaked)
      await s.revokeKey(k2.prefix);
      await s.revokeKey(k3.key);
      await assertUnauthorized(async () => await s.authenticate(k2.key), /revoked/);
      await assertUnauthorized(async () => await s.authenticate(k3.key), /revoked/);
      // Revoking again keeps the first time; unknown references throw.
      assert.equal((await s.revokeKey(String(k1.keyId))).revokedAt, revoked.revokedAt);
      await assert.rejects(async () => await s.revokeKey(999), AccountStoreError);
      await assert.rejects(async () => await s.revokeKey('cc_dev_nope'), AccountStoreError);
      await s.close();
    });

    it('records last use, writing at most once per resolution interval', async () => {
      let clock = Date.parse('2025-01-01T00:00:00Z');
      const { store: s } = await tempStore({ now: () => new Date(clock), lastUsedResolutionMs: 60_000 });
      const a = await s.createAccount({ name: 'u', balanceKm2: 1 });
      const k = await s.createKey(a.id);
      assert.equal((await s.listKeys(a.id))[0]!.lastUsedAt, null);
      await s.authenticate(k.key);
      assert.equal((await s.listKeys(a.id))[0]!.lastUsedAt, '2025-01-01T00:00:00.000Z');
      clock += 30_000;
      await s.authenticate(k.key);
      assert.equal((await s.listKeys(a.id))[0]!.lastUsedAt, '2025-01-01T00:00:00.000Z', 'within the interval: not rewritten');
      clock += 31_000;
      await s.authenticate(k.key);
      assert.equal((await s.listKeys(a.id))[0]!.lastUsedAt, '2025-01-01T00:01:01.000Z');
      await s.close();
    });
  });
}
