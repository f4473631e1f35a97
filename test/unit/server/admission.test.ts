import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ApiError } from '../../../src/contract/errors.ts';
import { Admission, type Release } from '../../../src/server/admission.ts';

/** An admission on a clock the test moves. */
function clocked(maxInFlight: number, maxQueue: number) {
  let t = 0;
  const admission = new Admission({ maxInFlight, maxQueue, timeoutMs: 60_000, standingMs: 400, standingAfter: 4, now: () => t });
  return {
    admission,
    advance: (ms: number) => {
      t += ms;
    },
  };
}

/** Settles to 'served' (and releases) or to the error code. */
function outcome(p: Promise<Release>): Promise<string> {
  return p.then(
    (release) => {
      release();
      return 'served';
    },
    (err: ApiError) => err.code,
  );
}

/** Teaches the admission a typical service time of `ms`; requests that failed fast must not count. */
async function learn(admission: Admission, advance: (ms: number) => void, ms: number): Promise<void> {
  for (let i = 0; i < 3; i++) {
    const release = await admission.acquire();
    advance(ms);
    release(true);
  }
  for (let i = 0; i < 4; i++) (await admission.acquire())(); // a 402 or 400: no work done
  assert.equal(admission.typicalServiceMs(), ms);
}

test('admission: the length bound turns away the request past the queue at once', async () => {
  const { admission } = clocked(1, 1);
  const release = await admission.acquire();
  const waiting = outcome(admission.acquire());
  await assert.rejects(admission.acquire(), (err: ApiError) => err.code === 'server_busy' && err.headers?.['Retry-After'] === '2');
  release();
  assert.equal(await waiting, 'served');
});

test('admission: a burst waits its turn, however long, while the queue is not standing', async () => {
  const { admission, advance } = clocked(1, 4);
  await learn(admission, advance, 100);
  const release = await admission.acquire();
  const b = outcome(admission.acquire());
  advance(300); // waited 3× the typical time, but the queue has existed < 4 service times
  release();
  assert.equal(await b, 'served');
});

test('admission: in a standing queue, heads that waited longer than a quarter service time are turned away at their turn', async () => {
  const { admission, advance } = clocked(1, 8);
  await learn(admission, advance, 100); // target 25 ms; standing after 4 × 100 ms (and standingMs 400)
  let hold = await admission.acquire();
  const b = admission.acquire();
  advance(100);
  hold(true); // b waited 100 ms > 25: above the target from now on, but that may be a burst — served
  hold = await b;
  const c = outcome(admission.acquire()); // behind b
  advance(350);
  const d = outcome(admission.acquire());
  advance(40);
  const e = admission.acquire();
  advance(10); // heads have been above the target for 400 ms: a standing queue
  hold();
  assert.equal(await c, 'server_busy', 'waited 400 ms');
  assert.equal(await d, 'server_busy', 'waited 50 ms');
  const releaseE = await e; // waited 10 ms ≤ 25: served
  assert.equal(admission.inFlight, 1);
  assert.equal(admission.queued, 0);
  // the queue drained, and calm for a standing period: the next burst is served
  releaseE();
  advance(500);
  hold = await admission.acquire();
  const f = admission.acquire();
  advance(300);
  hold();
  (await f)();
});

test('admission: the typical service time is the median, so a few slot-holding slow readers do not stretch it', async () => {
  const { admission, advance } = clocked(2, 0);
  await learn(admission, advance, 40);
  const slow = await admission.acquire();
  advance(30_000);
  slow(true);
  assert.equal(admission.typicalServiceMs(), 40);
});

const LARGE = { areaKm2: 2, export: true };
const SMALL = { areaKm2: 0.1, export: false };

/** Settles to 'running' when granted (keeping the slot), else to the error code; `seen` says whether it settled yet. */
function track(p: Promise<Release>) {
  const state = { outcome: 'waiting' as string, release: null as Release | null };
  p.then(
    (release) => {
      state.outcome = 'running';
      state.release = release;
    },
    (err: ApiError) => {
      state.outcome = `${err.code} retry-after ${err.headers['Retry-After']}`;
    },
  );
  return state;
}
const settle = () => new Promise((r) => setImmediate(r));

test('admission: large requests (exports, big areas) leave the small slots free; a small request runs at once beside them', async () => {
  const admission = new Admission({ maxInFlight: 2, maxQueue: 8, timeoutMs: 60_000 });
  const a = track(admission.acquire(undefined, LARGE));
  const b = track(admission.acquire(undefined, { areaKm2: 5, export: false })); // large by area
  const c = track(admission.acquire(undefined, SMALL));
  await settle();
  assert.deepEqual([a.outcome, b.outcome, c.outcome], ['running', 'waiting', 'running']);
  a.release!(true);
  await settle();
  assert.equal(b.outcome, 'running', 'the large slot passed to the next large request');
  b.release!();
  c.release!();
});

test('admission: a freed slot goes to the head that came first among the classes that may take it', async () => {
  const admission = new Admission({ maxInFlight: 2, maxQueue: 8, timeoutMs: 60_000 });
  const s1 = track(admission.acquire(undefined, SMALL));
  const s2 = track(admission.acquire(undefined, SMALL));
  const big = track(admission.acquire(undefined, LARGE));
  const s3 = track(admission.acquire(undefined, SMALL));
  await settle();
  assert.deepEqual([big.outcome, s3.outcome], ['waiting', 'waiting']);
  s1.release!();
  await settle();
  assert.deepEqual([big.outcome, s3.outcome], ['running', 'waiting'], 'the large request came first and a large slot is free');
  s2.release!();
  await settle();
  assert.equal(s3.outcome, 'running');
  big.release!();
  s3.release!();
});

test('admission: a request whose expected wait exceeds the queue timeout is answered 503 at once, with when to come back', async () => {
  let t = 0;
  const admission = new Admission({ maxInFlight: 2, maxQueue: 8, timeoutMs: 15_000, now: () => t });
  // Nothing learned yet: a third export waits rather than being guessed away.
  const first = [track(admission.acquire(undefined, LARGE)), track(admission.acquire(undefined, LARGE)), track(admission.acquire(undefined, LARGE))];
  await settle();
  assert.deepEqual(
    first.map((s) => s.outcome),
    ['running', 'waiting', 'waiting'],
  );
  t += 10_000; // a 2 km² export takes 10 s: 5 s per km²
  first[0].release!(true);
  await settle();
  t += 10_000;
  first[1].release!(true);
  await settle();
  t += 2_000; // the third has run 2 s of its expected 10
  const b = track(admission.acquire(undefined, LARGE)); // starts in 8 s: waits
  const c = track(admission.acquire(undefined, LARGE)); // would start in 18 s > 15 s
  const small = track(admission.acquire(undefined, SMALL)); // its slot is free
  await settle();
  assert.deepEqual([b.outcome, c.outcome, small.outcome], ['waiting', 'server_busy retry-after 3', 'running']);
  first[2].release!(true);
  small.release!();
});

test('admission: large requests fill at most half the queue, so small ones can still wait their turn', async () => {
  const admission = new Admission({ maxInFlight: 2, maxQueue: 4, timeoutMs: 60_000 });
  const running = [track(admission.acquire(undefined, LARGE)), track(admission.acquire(undefined, SMALL))];
  const large = [0, 1, 2].map(() => track(admission.acquire(undefined, LARGE)));
  const small = [0, 1].map(() => track(admission.acquire(undefined, SMALL)));
  await settle();
  assert.deepEqual(
    [...large, ...small].map((s) => s.outcome),
    ['waiting', 'waiting', 'server_busy retry-after 2', 'waiting', 'waiting'],
  );
  for (const s of running) s.release!();
});
