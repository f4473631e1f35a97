/**
 * What every account store must do, whatever holds it: reserve / commit / release and what is
 * charged or refused, API keys, stale holds and leases, request ids, and a property that no
 * sequence of operations (over two connections) overspends. Each store's test file runs it:
 * test/unit/accounts/sqlite-store.test.ts and postgres-store.test.ts.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { ApiError } from '../../../src/contract/errors.ts';
import {
  AccountStoreError,
  type AccountStore,
  type AccountStoreOptions,
  type Account,
  type AuthContext,
  type CreatedKey,
  type Reservation,
} from '../../../src/accounts/index.ts';

/** One store implementation under test. */
export interface AccountBackend {
  /** A new, empty location (a file path, a database URL). */
  fresh(): Promise<string>;
  open(location: string, options?: AccountStoreOptions): Promise<AccountStore>;
  /** Runs of the no-overspend property (each opens nothing new, but a networked store pays per round trip). */
  propertyRuns?: number;
}

export function accountStoreSuite(label: string, backend: AccountBackend): void {
  const tempPath = () => backend.fresh();
  const open = (location: string, options?: AccountStoreOptions) => backend.open(location, options);

  async function setup(balanceKm2: number, active = true, location?: string) {
    const path = location ?? (await tempPath());
    const store = await open(path);
    const account = await store.createAccount({ name: 'acme', balanceKm2, active });
    const { key } = await store.createKey(account.id);
    return { store, path, account, auth: await store.authenticate(`Bearer ${key}`) };
  }

  async function tempStore(options: AccountStoreOptions = {}) {
    const path = await tempPath();
    return { store: await open(path, options), path };
  }

  async function rejectsWith(fn: () => Promise<unknown>, code: string): Promise<ApiError> {
    let caught: unknown;
    await assert.rejects(fn, (err: unknown) => ((caught = err), err instanceof ApiError && err.code === code));
    return caught as ApiError;
  }

  async function assertUnauthorized(fn: () => Promise<unknown>, message: RegExp): Promise<void> {
    await assert.rejects(fn, (err: unknown) => {
      assert.ok(err instanceof ApiError, `expected ApiError, got ${String(err)}`);
      assert.equal(err.code, 'unauthorized');
      assert.equal(err.status, 401);
      assert.match(err.message, message);
      return true;
    });
  }

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

  type Op =
    | { op: 'reserve'; areaKm2: number; via: number }
    | { op: 'commit'; pick: number }
    | { op: 'release'; pick: number; status: 'failed' | 'aborted' }
    | { op: 'topUp'; km2: number }
    | { op: 'setActive'; active: boolean };

  const opArb: fc.Arbitrary<Op> = fc.oneof(
    {
      weight: 4,
      arbitrary: fc.record({
        op: fc.constant('reserve' as const),
        areaKm2: fc.oneof(fc.double({ min: 0, max: 8, noNaN: true }), fc.constantFrom(0, 0.01, 1, 2.5)),
        via: fc.nat(1),
      }),
    },
    { weight: 3, arbitrary: fc.record({ op: fc.constant('commit' as const), pick: fc.nat() }) },
    {
      weight: 2,
      arbitrary: fc.record({ op: fc.constant('release' as const), pick: fc.nat(), status: fc.constantFrom('failed' as const, 'aborted' as const) }),
    },
    { weight: 1, arbitrary: fc.record({ op: fc.constant('topUp' as const), km2: fc.double({ min: 0.001, max: 5, noNaN: true }) }) },
    { weight: 1, arbitrary: fc.record({ op: fc.constant('setActive' as const), active: fc.boolean() }) },
  );

  describe(`${label}: property: no sequence of operations overspends`, () => {
    it('keeps balance ≥ reserved ≥ 0 and charges exactly the committed costs (two connections on one file)', async () => {
      const path = await tempPath();
      const stores = [await open(path), await open(path, { releaseStale: false })];
      const m2 = (km2: number) => Math.round(km2 * 1e6);

      await fc.assert(
        fc.asyncProperty(fc.double({ min: 0, max: 20, noNaN: true }), fc.array(opArb, { maxLength: 40 }), async (startKm2, ops) => {
          const [s0, s1] = stores as [AccountStore, AccountStore];
          const account = await s0.createAccount({ name: 'p', balanceKm2: startKm2 });
          const auth: AuthContext = await s0.authenticate((await s0.createKey(account.id)).key);
          // The model, in whole m², computed independently of the store.
          let balance = m2(startKm2);
          let toppedUp = 0;
          let active = true;
          const held: { r: Reservation; cost: number; open: boolean }[] = [];

          for (const op of ops) {
            if (op.op === 'reserve') {
              const cost = Math.max(10_000, m2(op.areaKm2));
              const reservedNow = held.filter((h) => h.open).reduce((s, h) => s + h.cost, 0);
              const store = stores[op.via]!;
              if (!active) {
                await rejectsWith(async () => await store.reserve(auth, op.areaKm2), 'no_active_subscription');
              } else if (balance - reservedNow < cost) {
                await rejectsWith(async () => await store.reserve(auth, op.areaKm2), 'insufficient_balance');
              } else {
                const r = await store.reserve(auth, op.areaKm2);
                assert.equal(m2(r.costKm2), cost);
                held.push({ r, cost, open: true });
              }
            } else if (op.op === 'commit' || op.op === 'release') {
              if (held.length === 0) continue;
              const h = held[op.pick % held.length]!;
              const changed = op.op === 'commit' ? await h.r.commit() : await h.r.release(op.status);
              assert.equal(changed, h.open);
              if (h.open && op.op === 'commit') balance -= h.cost;
              h.open = false;
            } else if (op.op === 'topUp') {
              await s1.topUp(account.id, op.km2);
              balance += m2(op.km2);
              toppedUp += m2(op.km2);
            } else {
              await s0.setActive(account.id, op.active);
              active = op.active;
            }

            const a = (await s1.getAccount(account.id))!;
            const reserved = held.filter((h) => h.open).reduce((s, h) => s + h.cost, 0);
            assert.ok(a.balanceKm2 >= 0 && a.reservedKm2 >= 0 && a.reservedKm2 <= a.balanceKm2);
            assert.equal(m2(a.balanceKm2), balance);
            assert.equal(m2(a.reservedKm2), reserved);
          }

          const rows = await s0.usage(account.id, { limit: 1000 });
          assert.equal(rows.length, held.length);
          const charged = rows.reduce((s, r) => s + m2(r.costKm2), 0);
          assert.equal(charged, m2(startKm2) + toppedUp - balance, 'total charged = start + top-ups - balance');
          const committed = held.filter((h) => !h.open && rows.find((r) => r.id === h.r.id)!.status === 'completed');
          assert.equal(
            charged,
            committed.reduce((s, h) => s + h.cost, 0),
            'total charged = sum of committed costs',
          );
          for (const r of rows) if (r.status !== 'completed') assert.equal(r.costKm2, 0);
        }),
        { numRuns: backend.propertyRuns ?? 150 },
      );
      for (const s of stores) await s.close();
    });
  });

  describe(`${label}: request ids and many holders at once`, () => {
    it('charges a request id once: a second reservation under it is refused and holds nothing, whichever store makes it', async () => {
      const { store, path, account, auth } = await setup(10);
      const other = await open(path, { releaseStale: false });
      try {
        const first = await store.reserve(auth, 1, { requestId: 'req-1' });
        assert.equal(first.requestId, 'req-1');
        await rejectsWith(() => other.reserve(auth, 1, { requestId: 'req-1' }), 'invalid_request');
        assert.equal((await other.getAccount(account.id))!.reservedKm2, 1, 'the refused duplicate holds nothing');
        assert.equal(await first.commit(), true);
        await rejectsWith(() => other.reserve(auth, 1, { requestId: 'req-1' }), 'invalid_request');
        assert.deepEqual(
          (await other.usage(account.id)).map((r) => [r.status, r.costKm2]),
          [['completed', 1]],
        );
        const unnamed = [await store.reserve(auth, 1), await other.reserve(auth, 1)];
        assert.notEqual(unnamed[0]!.requestId, unnamed[1]!.requestId, 'a fresh id when none is given');
      } finally {
        await other.close();
        await store.close();
      }
    });

    it('creates the first account once when several stores race for it', async () => {
      const path = await tempPath();
      const stores = await Promise.all([open(path), open(path), open(path)]);
      try {
        const made = await Promise.all(stores.map((s) => s.createFirstAccount({ name: 'demo', balanceKm2: 5 }, 'development')));
        assert.equal(made.filter((m) => m !== null).length, 1);
        assert.equal(await stores[0]!.accountCount(), 1);
        const winner = made.find((m) => m !== null)!;
        assert.equal((await stores[1]!.authenticate(winner.key)).accountId, winner.accountId);
        assert.equal(await stores[2]!.createFirstAccount({ name: 'again', balanceKm2: 1 }, 'development'), null);
      } finally {
        for (const s of stores) await s.close();
      }
    });

    it('never holds more than the balance when two stores reserve at once, and settles each hold once', async () => {
      const { store, path, account, auth } = await setup(7.5);
      const other = await open(path, { releaseStale: false });
      try {
        const attempts = Array.from({ length: 40 }, (_, i) => (i % 2 ? store : other).reserve(auth, 0.5));
        const outcomes = await Promise.allSettled(attempts);
        const held = outcomes.flatMap((o) => (o.status === 'fulfilled' ? [o.value] : []));
        for (const o of outcomes) if (o.status === 'rejected') assert.equal((o.reason as ApiError).code, 'insufficient_balance');
        assert.equal(held.length, 15, 'exactly what 7.5 km² covers');
        // every hold settled twice at once from both stores: each charged once
        const commits = await Promise.all(held.flatMap((r) => [r.commit(), r.release('failed')]));
        assert.equal(commits.filter(Boolean).length, 15);
        const a = (await other.getAccount(account.id))!;
        const charged = (await store.usage(account.id, { limit: 100 })).reduce((sum, r) => sum + r.costKm2, 0);
        assert.deepEqual(
          [a.reservedKm2, Math.round((7.5 - a.balanceKm2) * 1e6), Math.round(charged * 1e6)],
          [0, Math.round(charged * 1e6), Math.round(charged * 1e6)],
        );
      } finally {
        await other.close();
        await store.close();
      }
    });
  });

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
