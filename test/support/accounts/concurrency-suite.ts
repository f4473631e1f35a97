/** No sequence of operations over two connections overspends; request ids; stores racing for the same credit: the account store contract (part of account-store-suite.ts) */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { ApiError } from '../../../src/contract/errors.ts';
import type { AccountStore, AuthContext, Reservation } from '../../../src/accounts/index.ts';
import type { SuiteKit } from './account-store-suite.ts';

export function concurrencySuite(label: string, kit: SuiteKit): void {
  const { backend, tempPath, open, setup, rejectsWith } = kit;

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
          (await other.usage(account.id)).map((r) => [r.requestId, r.status, r.costKm2]),
          [['req-1', 'completed', 1]],
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
}
