/** Premium building entitlements: grant, revoke, list, checked names (part of account-store-suite.ts) */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { AccountStoreError, type AccountStore } from '../../../src/accounts/index.ts';
import type { SuiteKit } from './account-store-suite.ts';

export function entitlementsSuite(label: string, kit: SuiteKit): void {
  const { tempStore } = kit;
  const listed = async (store: AccountStore, id: number) => (await store.premiumEntitlements(id)).map((e) => `${e.kind} ${e.value}`);

  it(`${label}: grants datasets and countries, lists datasets first, and grants twice as once`, async () => {
    const { store } = await tempStore({ staleSweepMs: 0 });
    const a = await store.createAccount({ name: 'a', balanceKm2: 1 });
    const b = await store.createAccount({ name: 'b', balanceKm2: 1 });
    await store.grantPremium(a.id, { kind: 'country', value: ' de-be ' });
    await store.grantPremium(a.id, { kind: 'dataset', value: 'zurich-sample' });
    const first = (await store.premiumEntitlements(a.id))[0]!.grantedAt;
    await store.grantPremium(a.id, { kind: 'dataset', value: 'zurich-sample' });
    await store.grantPremium(a.id, { kind: 'country', value: 'CH' });
    assert.deepEqual(await listed(store, a.id), ['dataset zurich-sample', 'country CH', 'country DE-BE']);
    assert.equal((await store.premiumEntitlements(a.id))[0]!.grantedAt, first);
    assert.deepEqual(await listed(store, b.id), [], 'grants are per account');

    // revoking is exact: DE is not held, DE-BE is
    await assert.rejects(() => store.revokePremium(a.id, { kind: 'country', value: 'DE' }), AccountStoreError);
    assert.deepEqual(
      (await store.revokePremium(a.id, { kind: 'country', value: 'de-be' })).map((e) => e.value),
      ['zurich-sample', 'CH'],
    );
    await store.close();
  });

  it(`${label}: refuses malformed codes and ids, and unknown accounts`, async () => {
    const { store } = await tempStore({ staleSweepMs: 0 });
    const a = await store.createAccount({ name: 'a', balanceKm2: 1 });
    for (const value of ['DEU', 'D', 'DE-', 'DE-BERL', '12']) {
      await assert.rejects(() => store.grantPremium(a.id, { kind: 'country', value }), AccountStoreError, value);
    }
    for (const value of ['', 'a b', '-x', 'x'.repeat(65)]) {
      await assert.rejects(() => store.grantPremium(a.id, { kind: 'dataset', value }), AccountStoreError, value);
    }
    await assert.rejects(() => store.grantPremium(a.id, { kind: 'region' as 'country', value: 'CH' }), AccountStoreError);
    await assert.rejects(() => store.grantPremium(a.id + 1, { kind: 'country', value: 'CH' }), /No account/);
    assert.deepEqual(await listed(store, a.id), []);
    await store.close();
  });
}
