/** Reserve / commit / release: what is charged, what is refused, and that nothing can overspend. */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import fc from 'fast-check';
import { ApiError } from '../../../src/contract/errors.ts';
import { AccountStore, type AuthContext, type Reservation } from '../../../src/accounts/index.ts';

const dirs: string[] = [];
function tempPath(): string {
  const dir = mkdtempSync(join(tmpdir(), 'cc-ledger-'));
  dirs.push(dir);
  return join(dir, 'accounts.sqlite');
}
after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function setup(balanceKm2: number, active = true, path = tempPath()) {
  const store = AccountStore.open(path);
  const account = store.createAccount({ name: 'acme', balanceKm2, active });
  const { key } = store.createKey(account.id);
  return { store, path, account, auth: store.authenticate(`Bearer ${key}`) };
}

function rejectsWith(fn: () => unknown, code: string): ApiError {
  let caught: unknown;
  assert.throws(fn, (err: unknown) => ((caught = err), err instanceof ApiError && err.code === code));
  return caught as ApiError;
}

describe('reserve, commit, release', () => {
  it('holds the cost while in flight and charges it on commit', () => {
    const { store, account, auth } = setup(10);
    const r = store.reserve(auth, 2.5);
    assert.equal(r.costKm2, 2.5);
    assert.deepEqual(
      [store.getAccount(account.id)!.balanceKm2, store.getAccount(account.id)!.reservedKm2, store.getAccount(account.id)!.availableKm2],
      [10, 2.5, 7.5],
    );
    assert.equal(store.usage(account.id)[0]!.status, 'reserved');
    assert.equal(r.commit(), true);
    const after = store.getAccount(account.id)!;
    assert.deepEqual([after.balanceKm2, after.reservedKm2], [7.5, 0]);
    const [row] = store.usage(account.id);
    assert.equal(row!.status, 'completed');
    assert.equal(row!.costKm2, 2.5);
    assert.equal(row!.areaKm2, 2.5);
    assert.equal(row!.keyId, auth.keyId);
    assert.ok(row!.finishedAt && row!.finishedAt >= row!.startedAt);
    store.close();
  });

  it('charges nothing for a failed or aborted request', () => {
    const { store, account, auth } = setup(10);
    const failed = store.reserve(auth, 3);
    const aborted = store.reserve(auth, 4);
    assert.equal(failed.release('failed'), true);
    assert.equal(aborted.release('aborted'), true);
    const a = store.getAccount(account.id)!;
    assert.deepEqual([a.balanceKm2, a.reservedKm2], [10, 0]);
    assert.deepEqual(
      store.usage(account.id).map((r) => [r.status, r.costKm2, r.reservedKm2]),
      [
        ['aborted', 0, 4],
        ['failed', 0, 3],
      ],
    );
    store.close();
  });

  it('is idempotent: a second commit, a commit after release and a release after commit change nothing', () => {
    const { store, account, auth } = setup(10);
    const committed = store.reserve(auth, 1);
    const released = store.reserve(auth, 1);
    assert.equal(committed.commit(), true);
    assert.equal(committed.commit(), false);
    assert.equal(committed.release('failed'), false);
    assert.equal(released.release('aborted'), true);
    assert.equal(released.release('failed'), false);
    assert.equal(released.commit(), false);
    const a = store.getAccount(account.id)!;
    assert.deepEqual([a.balanceKm2, a.reservedKm2], [9, 0]);
    assert.deepEqual(
      store.usage(account.id).map((r) => r.status),
      ['aborted', 'completed'],
    );
    store.close();
  });

  it('charges at least 0.01 km²', () => {
    const { store, account, auth } = setup(1);
    assert.equal(store.reserve(auth, 0).costKm2, 0.01);
    assert.equal(store.reserve(auth, 0.0004).costKm2, 0.01);
    const r = store.reserve(auth, 0.0123456);
    assert.equal(r.costKm2, 0.012346, 'rounded to whole m²');
    r.commit();
    assert.equal(store.getAccount(account.id)!.balanceKm2, 1 - 0.012346);
    assert.throws(() => store.reserve(auth, -1), RangeError);
    assert.throws(() => store.reserve(auth, Number.NaN), RangeError);
    store.close();
  });

  it('refuses an inactive plan with no_active_subscription, until it is activated', () => {
    const { store, account, auth } = setup(10, false);
    const err = rejectsWith(() => store.reserve(auth, 1), 'no_active_subscription');
    assert.equal(err.status, 402);
    store.setActive(account.id, true);
    store.reserve(auth, 1).commit();
    store.setActive(account.id, false);
    rejectsWith(() => store.reserve(auth, 1), 'no_active_subscription');
    assert.equal(store.usage(account.id).length, 1, 'a refused request leaves no ledger row');
    store.close();
  });

  it('refuses insufficient_balance, counting what is already reserved, with the numbers in details', () => {
    const { store, account, auth } = setup(5);
    const held = store.reserve(auth, 3);
    const err = rejectsWith(() => store.reserve(auth, 2.5), 'insufficient_balance');
    assert.equal(err.status, 402);
    assert.deepEqual({ ...err.details[0], message: undefined }, { message: undefined, balanceKm2: 5, reservedKm2: 3, availableKm2: 2, costKm2: 2.5 });
    assert.match(err.message, /2 km².*2\.5 km²/);
    store.reserve(auth, 2).release('failed'); // exactly the available amount is fine
    held.release('aborted');
    store.reserve(auth, 2.5).commit(); // after the hold is gone it fits
    assert.equal(store.getAccount(account.id)!.balanceKm2, 2.5);
    store.topUp(account.id, 0.5);
    assert.equal(store.getAccount(account.id)!.balanceKm2, 3);
    store.close();
  });
});

describe('free requests', () => {
  it('hold their usual cost while they run, then commit at cost 0 as a completed row; a refund has nothing to give back', () => {
    const { store, account, auth } = setup(1);
    const free = store.reserve(auth, 0.3, { free: true });
    assert.equal(free.costKm2, 0);
    assert.equal(store.getAccount(account.id)!.reservedKm2, 0.3, 'held like any request');
    assert.equal(free.commit(), true);
    const a = store.getAccount(account.id)!;
    assert.deepEqual([a.balanceKm2, a.reservedKm2], [1, 0]);
    const [row] = store.usage(account.id);
    assert.deepEqual([row!.status, row!.costKm2, row!.reservedKm2], ['completed', 0, 0.3]);
    assert.equal(free.refund(), false);
    assert.equal(store.getAccount(account.id)!.balanceKm2, 1, 'a refund of nothing adds nothing');
    store.close();
  });
});

describe('stale reservations', () => {
  it('are released (uncharged) when the store is opened again, and a late commit then charges nothing', () => {
    // A crashed process: its lease (written on its clock, an hour behind) is long expired.
    const path = tempPath();
    const crashed = AccountStore.open(path, { now: () => new Date(Date.now() - 3_600_000) });
    const account = crashed.createAccount({ name: 'acme', balanceKm2: 10 });
    const auth = crashed.authenticate(`Bearer ${crashed.createKey(account.id).key}`);
    const orphan = crashed.reserve(auth, 4);
    assert.equal(crashed.getAccount(account.id)!.reservedKm2, 4);

    const admin = AccountStore.open(path, { releaseStale: false });
    assert.equal(admin.getAccount(account.id)!.reservedKm2, 4, 'a second process that asks not to release leaves it held');
    admin.close();

    const restarted = AccountStore.open(path);
    const a = restarted.getAccount(account.id)!;
    assert.deepEqual([a.balanceKm2, a.reservedKm2], [10, 0]);
    const [row] = restarted.usage(account.id);
    assert.deepEqual([row!.status, row!.costKm2], ['aborted', 0]);
    assert.equal(orphan.commit(), false, 'the old process committing late changes nothing');
    assert.equal(restarted.getAccount(account.id)!.balanceKm2, 10);
    restarted.close();
    crashed.close();
  });

  it('are released by a running store on its own, every staleSweepMs, when their lease lapsed; a live neighbour keeps its holds', async () => {
    const path = tempPath();
    // A process on another host that died: no process id to check here, only its lease (an hour behind) lapsed.
    const gone = AccountStore.open(path, { releaseStale: false, staleSweepMs: 0, now: () => new Date(Date.now() - 3_600_000) });
    const account = gone.createAccount({ name: 'acme', balanceKm2: 10 });
    const key = gone.createKey(account.id).key;
    gone.reserve(gone.authenticate(key), 4);
    const neighbour = AccountStore.open(path, { releaseStale: false, staleSweepMs: 0 });
    const kept = neighbour.reserve(neighbour.authenticate(key), 1);
    let told = 0;
    const running = AccountStore.open(path, { releaseStale: false, staleSweepMs: 20, onStaleReleased: (n) => (told += n) });
    // the sweep's timer does not keep the process alive: this wait does
    for (let waited = 0; told === 0 && waited < 5000; waited += 10) await new Promise((r) => setTimeout(r, 10));
    running.close();
    assert.equal(told, 1);
    const a = neighbour.getAccount(account.id)!;
    assert.deepEqual([a.balanceKm2, a.reservedKm2], [10, 1], "the lapsed hold went, the live neighbour's stayed");
    assert.equal(kept.commit(), true);
    assert.equal(neighbour.getAccount(account.id)!.balanceKm2, 9);
    neighbour.close();
    gone.close();
  });

  it('can be limited to those started before a time', () => {
    let clock = Date.parse('2025-06-01T12:00:00Z');
    const path = tempPath();
    const store = AccountStore.open(path, { now: () => new Date(clock) });
    const account = store.createAccount({ name: 'x', balanceKm2: 10 });
    const auth = store.authenticate(store.createKey(account.id).key);
    store.reserve(auth, 1);
    clock += 60_000;
    const fresh = store.reserve(auth, 2);
    assert.equal(store.releaseStaleReservations({ startedBefore: new Date(clock - 30_000) }), 1);
    assert.equal(store.getAccount(account.id)!.reservedKm2, 2);
    assert.equal(fresh.commit(), true);
    assert.equal(store.getAccount(account.id)!.balanceKm2, 8);
    store.close();
  });
});

describe('accounts', () => {
  it('validates input and lists accounts', () => {
    const store = AccountStore.open(tempPath());
    assert.equal(store.accountCount(), 0);
    assert.throws(() => store.createAccount({ name: ' ', balanceKm2: 1 }), /name/);
    assert.throws(() => store.createAccount({ name: 'n', balanceKm2: -1 }), /balance/);
    assert.throws(() => store.createAccount({ name: 'n', balanceKm2: Number.POSITIVE_INFINITY }), /balance/);
    const a = store.createAccount({ name: 'a', balanceKm2: 1.5 });
    const b = store.createAccount({ name: 'b', balanceKm2: 0, active: false });
    assert.deepEqual(
      store.listAccounts().map((x) => [x.id, x.name, x.status, x.balanceKm2]),
      [
        [a.id, 'a', 'active', 1.5],
        [b.id, 'b', 'inactive', 0],
      ],
    );
    assert.equal(store.accountCount(), 2);
    assert.throws(() => store.topUp(a.id, 0), /more than 0/);
    assert.throws(() => store.topUp(999, 1), /No account/);
    assert.throws(() => store.setActive(999, true), /No account/);
    assert.throws(() => store.usage(a.id, { limit: 0 }), /Limit/);
    store.close();
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
  { weight: 2, arbitrary: fc.record({ op: fc.constant('release' as const), pick: fc.nat(), status: fc.constantFrom('failed' as const, 'aborted' as const) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('topUp' as const), km2: fc.double({ min: 0.001, max: 5, noNaN: true }) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('setActive' as const), active: fc.boolean() }) },
);

describe('property: no sequence of operations overspends', () => {
  it('keeps balance ≥ reserved ≥ 0 and charges exactly the committed costs (two connections on one file)', () => {
    const path = tempPath();
    const stores = [AccountStore.open(path), AccountStore.open(path, { releaseStale: false })];
    const m2 = (km2: number) => Math.round(km2 * 1e6);

    fc.assert(
      fc.property(fc.double({ min: 0, max: 20, noNaN: true }), fc.array(opArb, { maxLength: 40 }), (startKm2, ops) => {
        const [s0, s1] = stores as [AccountStore, AccountStore];
        const account = s0.createAccount({ name: 'p', balanceKm2: startKm2 });
        const auth: AuthContext = s0.authenticate(s0.createKey(account.id).key);
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
              rejectsWith(() => store.reserve(auth, op.areaKm2), 'no_active_subscription');
            } else if (balance - reservedNow < cost) {
              rejectsWith(() => store.reserve(auth, op.areaKm2), 'insufficient_balance');
            } else {
              const r = store.reserve(auth, op.areaKm2);
              assert.equal(m2(r.costKm2), cost);
              held.push({ r, cost, open: true });
            }
          } else if (op.op === 'commit' || op.op === 'release') {
            if (held.length === 0) continue;
            const h = held[op.pick % held.length]!;
            const changed = op.op === 'commit' ? h.r.commit() : h.r.release(op.status);
            assert.equal(changed, h.open);
            if (h.open && op.op === 'commit') balance -= h.cost;
            h.open = false;
          } else if (op.op === 'topUp') {
            s1.topUp(account.id, op.km2);
            balance += m2(op.km2);
            toppedUp += m2(op.km2);
          } else {
            s0.setActive(account.id, op.active);
            active = op.active;
          }

          const a = s1.getAccount(account.id)!;
          const reserved = held.filter((h) => h.open).reduce((s, h) => s + h.cost, 0);
          assert.ok(a.balanceKm2 >= 0 && a.reservedKm2 >= 0 && a.reservedKm2 <= a.balanceKm2);
          assert.equal(m2(a.balanceKm2), balance);
          assert.equal(m2(a.reservedKm2), reserved);
        }

        const rows = s0.usage(account.id, { limit: 1000 });
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
      { numRuns: 150 },
    );
    stores.forEach((s) => s.close());
  });
});
