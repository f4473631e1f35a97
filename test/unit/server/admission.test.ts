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
