/** Reserve / commit / release, free requests, stale holds and leases, account input: the account store contract (part of account-store-suite.ts) */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { SuiteKit } from './account-store-suite.ts';

export function ledgerSuite(label: string, kit: SuiteKit): void {
  const { tempPath, open, setup, rejectsWith } = kit;

  describe(`${label}: reserve, commit, release`, () => {
    it('holds the cost while in flight and charges it on commit', async () => {
      const { store, account, auth } = await setup(10);
      const r = await store.reserve(auth, 2.5);
      assert.equal(r.costKm2, 2.5);
      assert.deepEqual(
        [
          (await store.getAccount(account.id))!.balanceKm2,
          (await store.getAccount(account.id))!.reservedKm2,
          (await store.getAccount(account.id))!.availableKm2,
        ],
        [10, 2.5, 7.5],
      );
      assert.equal((await store.usage(account.id))[0]!.status, 'reserved');
      assert.equal(await r.commit(), true);
      const after = (await store.getAccount(account.id))!;
      assert.deepEqual([after.balanceKm2, after.reservedKm2], [7.5, 0]);
      const [row] = await store.usage(account.id);
      assert.equal(row!.status, 'completed');
      assert.equal(row!.costKm2, 2.5);
      assert.equal(row!.areaKm2, 2.5);
      assert.equal(row!.keyId, auth.keyId);
      assert.ok(row!.finishedAt && row!.finishedAt >= row!.startedAt);
      await store.close();
    });

    it('charges nothing for a failed or aborted request', async () => {
      const { store, account, auth } = await setup(10);
      const failed = await store.reserve(auth, 3);
      const aborted = await store.reserve(auth, 4);
      assert.equal(await failed.release('failed'), true);
      assert.equal(await aborted.release('aborted'), true);
      const a = (await store.getAccount(account.id))!;
      assert.deepEqual([a.balanceKm2, a.reservedKm2], [10, 0]);
      assert.deepEqual(
        (await store.usage(account.id)).map((r) => [r.status, r.costKm2, r.reservedKm2]),
        [
          ['aborted', 0, 4],
          ['failed', 0, 3],
        ],
      );
      await store.close();
    });

    it('is idempotent: a second commit, a commit after release and a release after commit change nothing', async () => {
      const { store, account, auth } = await setup(10);
      const committed = await store.reserve(auth, 1);
      const released = await store.reserve(auth, 1);
      assert.equal(await committed.commit(), true);
      assert.equal(await committed.commit(), false);
      assert.equal(await committed.release('failed'), false);
      assert.equal(await released.release('aborted'), true);
      assert.equal(await released.release('failed'), false);
      assert.equal(await released.commit(), false);
      const a = (await store.getAccount(account.id))!;
      assert.deepEqual([a.balanceKm2, a.reservedKm2], [9, 0]);
      assert.deepEqual(
        (await store.usage(account.id)).map((r) => r.status),
        ['aborted', 'completed'],
      );
      await store.close();
    });

    it('charges at least 0.01 km²', async () => {
      const { store, account, auth } = await setup(1);
      assert.equal((await store.reserve(auth, 0)).costKm2, 0.01);
      assert.equal((await store.reserve(auth, 0.0004)).costKm2, 0.01);
      const r = await store.reserve(auth, 0.0123456);
      assert.equal(r.costKm2, 0.012346, 'rounded to whole m²');
      await r.commit();
      assert.equal((await store.getAccount(account.id))!.balanceKm2, 1 - 0.012346);
      await assert.rejects(async () => await store.reserve(auth, -1), RangeError);
      await assert.rejects(async () => await store.reserve(auth, Number.NaN), RangeError);
      await store.close();
    });

    it('refuses an inactive plan with no_active_subscription, until it is activated', async () => {
      const { store, account, auth } = await setup(10, false);
      const err = await rejectsWith(async () => await store.reserve(auth, 1), 'no_active_subscription');
      assert.equal(err.status, 402);
      await store.setActive(account.id, true);
      await (await store.reserve(auth, 1)).commit();
      await store.setActive(account.id, false);
      await rejectsWith(async () => await store.reserve(auth, 1), 'no_active_subscription');
      assert.equal((await store.usage(account.id)).length, 1, 'a refused request leaves no ledger row');
      await store.close();
    });

    it('refuses insufficient_balance, counting what is already reserved, with the numbers in details', async () => {
      const { store, account, auth } = await setup(5);
      const held = await store.reserve(auth, 3);
      const err = await rejectsWith(async () => await store.reserve(auth, 2.5), 'insufficient_balance');
      assert.equal(err.status, 402);
      assert.deepEqual({ ...err.details[0], message: undefined }, { message: undefined, balanceKm2: 5, reservedKm2: 3, availableKm2: 2, costKm2: 2.5 });
      assert.match(err.message, /2 km².*2\.5 km²/);
      await (await store.reserve(auth, 2)).release('failed'); // exactly the available amount is fine
      await held.release('aborted');
      await (await store.reserve(auth, 2.5)).commit(); // after the hold is gone it fits
      assert.equal((await store.getAccount(account.id))!.balanceKm2, 2.5);
      await store.topUp(account.id, 0.5);
      assert.equal((await store.getAccount(account.id))!.balanceKm2, 3);
      await store.close();
    });
  });

  describe(`${label}: free requests`, () => {
    it('hold their usual cost while they run, then commit at cost 0 as a completed row; a refund has nothing to give back', async () => {
      const { store, account, auth } = await setup(1);
      const free = await store.reserve(auth, 0.3, { free: true });
      assert.equal(free.costKm2, 0);
      assert.equal((await store.getAccount(account.id))!.reservedKm2, 0.3, 'held like any request');
      assert.equal(await free.commit(), true);
      const a = (await store.getAccount(account.id))!;
      assert.deepEqual([a.balanceKm2, a.reservedKm2], [1, 0]);
      const [row] = await store.usage(account.id);
      assert.deepEqual([row!.status, row!.costKm2, row!.reservedKm2], ['completed', 0, 0.3]);
      assert.equal(await free.refund(), false);
      assert.equal((await store.getAccount(account.id))!.balanceKm2, 1, 'a refund of nothing adds nothing');
      await store.close();
    });
  });

  describe(`${label}: stale reservations`, () => {
    it('are released (uncharged) when the store is opened again, and a late commit then charges nothing', async () => {
      // A crashed process: its lease (written on its clock, an hour behind) is long expired.
      const path = await tempPath();
      const crashed = await open(path, { now: () => new Date(Date.now() - 3_600_000) });
      const account = await crashed.createAccount({ name: 'acme', balanceKm2: 10 });
      const auth = await crashed.authenticate(`Bearer ${(await crashed.createKey(account.id)).key}`);
      const orphan = await crashed.reserve(auth, 4);
      assert.equal((await crashed.getAccount(account.id))!.reservedKm2, 4);

      const admin = await open(path, { releaseStale: false });
      assert.equal((await admin.getAccount(account.id))!.reservedKm2, 4, 'a second process that asks not to release leaves it held');
      await admin.close();

      const restarted = await open(path);
      const a = (await restarted.getAccount(account.id))!;
      assert.deepEqual([a.balanceKm2, a.reservedKm2], [10, 0]);
      const [row] = await restarted.usage(account.id);
      assert.deepEqual([row!.status, row!.costKm2], ['aborted', 0]);
      assert.equal(await orphan.commit(), false, 'the old process committing late changes nothing');
      assert.equal((await restarted.getAccount(account.id))!.balanceKm2, 10);
      await restarted.close();
      await crashed.close();
    });

    it('are released by a running store on its own, every staleSweepMs, when their lease lapsed; a live neighbour keeps its holds', async () => {
      const path = await tempPath();
      // A process on another host that died: no process id to check here, only its lease (an hour behind) lapsed.
      const gone = await open(path, { releaseStale: false, staleSweepMs: 0, now: () => new Date(Date.now() - 3_600_000) });
      const account = await gone.createAccount({ name: 'acme', balanceKm2: 10 });
      const key = (await gone.createKey(account.id)).key;
      await gone.reserve(await gone.authenticate(key), 4);
      const neighbour = await open(path, { releaseStale: false, staleSweepMs: 0 });
      const kept = await neighbour.reserve(await neighbour.authenticate(key), 1);
      let told = 0;
      const running = await open(path, { releaseStale: false, staleSweepMs: 20, onStaleReleased: (n) => (told += n) });
      // the sweep's timer does not keep the process alive: this wait does
      for (let waited = 0; told === 0 && waited < 5000; waited += 10) await new Promise((r) => setTimeout(r, 10));
      await running.close();
      assert.equal(told, 1);
      const a = (await neighbour.getAccount(account.id))!;
      assert.deepEqual([a.balanceKm2, a.reservedKm2], [10, 1], "the lapsed hold went, the live neighbour's stayed");
      assert.equal(await kept.commit(), true);
      assert.equal((await neighbour.getAccount(account.id))!.balanceKm2, 9);
      await neighbour.close();
      await gone.close();
    });

    it('can be limited to those started before a time', async () => {
      let clock = Date.parse('2025-06-01T12:00:00Z');
      const path = await tempPath();
      const store = await open(path, { now: () => new Date(clock) });
      const account = await store.createAccount({ name: 'x', balanceKm2: 10 });
      const auth = await store.authenticate((await store.createKey(account.id)).key);
      await store.reserve(auth, 1);
      clock += 60_000;
      const fresh = await store.reserve(auth, 2);
      assert.equal(await store.releaseStaleReservations({ startedBefore: new Date(clock - 30_000) }), 1);
      assert.equal((await store.getAccount(account.id))!.reservedKm2, 2);
      assert.equal(await fresh.commit(), true);
      assert.equal((await store.getAccount(account.id))!.balanceKm2, 8);
      await store.close();
    });
  });

  describe(`${label}: accounts`, () => {
    it('validates input and lists accounts', async () => {
      const store = await open(await tempPath());
      assert.equal(await store.accountCount(), 0);
      await assert.rejects(async () => await store.createAccount({ name: ' ', balanceKm2: 1 }), /name/);
      await assert.rejects(async () => await store.createAccount({ name: 'n', balanceKm2: -1 }), /balance/);
      await assert.rejects(async () => await store.createAccount({ name: 'n', balanceKm2: Number.POSITIVE_INFINITY }), /balance/);
      const a = await store.createAccount({ name: 'a', balanceKm2: 1.5 });
      const b = await store.createAccount({ name: 'b', balanceKm2: 0, active: false });
      assert.deepEqual(
        (await store.listAccounts()).map((x) => [x.id, x.name, x.status, x.balanceKm2]),
        [
          [a.id, 'a', 'active', 1.5],
          [b.id, 'b', 'inactive', 0],
        ],
      );
      assert.equal(await store.accountCount(), 2);
      await assert.rejects(async () => await store.topUp(a.id, 0), /more than 0/);
      await assert.rejects(async () => await store.topUp(999, 1), /No account/);
      await assert.rejects(async () => await store.setActive(999, true), /No account/);
      await assert.rejects(async () => await store.usage(a.id, { limit: 0 }), /Limit/);
      await store.close();
    });
  });
}
