/**
 * The tile pool is shared fairly between requests (src/pipeline/tile-scheduler.ts): never more
 * tiles on the pool than slots, requests served in turn whatever their size, a queued tile's
 * abort rejects it without reaching the pool, and every tile runs exactly once. Driven with a
 * fake pool whose tasks finish when the test says.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { TileScheduler } from '../../../src/pipeline/tile-scheduler.ts';

/** A pool whose tasks wait until `finish` is called; records the order tasks started in. */
function fakePool() {
  const started: string[] = [];
  const running = new Map<string, () => void>();
  let peak = 0;
  return {
    started,
    get peak() {
      return peak;
    },
    get running() {
      return [...running.keys()];
    },
    run(task: unknown, { signal }: { signal?: AbortSignal } = {}) {
      const id = String(task);
      started.push(id);
      peak = Math.max(peak, running.size + 1);
      return new Promise((resolve, reject) => {
        running.set(id, () => {
          running.delete(id);
          resolve(`done ${id}`);
        });
        signal?.addEventListener(
          'abort',
          () => {
            running.delete(id);
            reject(signal.reason);
          },
          { once: true },
        );
      });
    },
    finish(id: string) {
      running.get(id)?.();
    },
  };
}

const tick = () => new Promise((r) => setImmediate(r));

test('a small request is served between the tiles of a big one that came first', async () => {
  const pool = fakePool();
  const scheduler = new TileScheduler(pool, 2);
  const signal = new AbortController().signal;
  const big = scheduler.queue(),
    small = scheduler.queue();
  const bigDone = Array.from({ length: 10 }, (_, i) => big.run(`big${i}`, signal));
  await tick();
  const smallDone = [0, 1].map((i) => small.run(`small${i}`, signal));
  assert.deepEqual(pool.started, ['big0', 'big1'], 'two slots');
  pool.finish('big0');
  await tick();
  pool.finish('big1');
  await tick();
  assert.deepEqual(pool.started.slice(2, 4), ['small0', 'big2'], 'the small request takes its turn at once');
  pool.finish('small0');
  await tick();
  assert.equal(pool.started[4], 'small1');
  pool.finish('small1');
  assert.deepEqual(await Promise.all(smallDone), ['done small0', 'done small1'], 'the small request is done while the big one still runs');
  for (let i = 2; i < 10; i++) {
    pool.finish(`big${i}`);
    await tick();
  }
  assert.equal((await Promise.all(bigDone)).length, 10);
  assert.equal(pool.peak, 2);
  assert.equal(scheduler.inFlight, 0);
});

test('while small requests come, big tiles leave one worker free for them; a big request alone has every worker', async () => {
  const pool = fakePool();
  let t = 0;
  const scheduler = new TileScheduler(pool, 3, () => t);
  const signal = new AbortController().signal;
  const big = scheduler.queue();
  const bigDone = Array.from({ length: 8 }, (_, i) => big.run(`big${i}`, signal));
  await tick();
  assert.deepEqual(pool.started, ['big0', 'big1', 'big2'], 'alone, the big request has all three workers');
  const small = scheduler.queue(true);
  const first = small.run('small0', signal);
  pool.finish('big0');
  await tick();
  assert.deepEqual(pool.started.slice(3), ['small0']);
  pool.finish('small0');
  await first;
  await tick();
  assert.deepEqual(pool.running.sort(), ['big1', 'big2'], 'the freed worker waits for the next small tile');
  const second = small.run('small1', signal);
  await tick();
  assert.deepEqual(pool.started.slice(4), ['small1'], 'and takes it at once');
  pool.finish('small1');
  await second;
  t += 10_000; // no small request for a while: the big one may fill every worker again
  pool.finish('big1');
  await tick();
  assert.deepEqual(pool.running.sort(), ['big2', 'big3', 'big4']);
  for (let i = 2; i < 8; i++) {
    pool.finish(`big${i}`);
    await tick();
  }
  assert.equal((await Promise.all(bigDone)).length, 8);
});

test("an aborted request's waiting tiles never reach the pool; its running ones are aborted by the pool", async () => {
  const pool = fakePool();
  const scheduler = new TileScheduler(pool, 1);
  const cancel = new AbortController();
  const q = scheduler.queue();
  const done = [0, 1, 2].map((i) => q.run(`t${i}`, cancel.signal));
  await tick();
  cancel.abort(new Error('client left'));
  for (const p of done) await assert.rejects(p, /client left/);
  assert.deepEqual(pool.started, ['t0']);
  assert.equal(scheduler.inFlight, 0);
  const other = scheduler.queue().run('next', new AbortController().signal);
  await tick();
  pool.finish('next');
  assert.equal(await other, 'done next', 'the pool is free again');
});

test('property: any mix of requests, sizes, finishing orders and aborts — each tile runs at most once, slots are never exceeded, every live tile finishes', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.integer({ min: 1, max: 3 }),
      fc.array(
        fc.record({ tiles: fc.integer({ min: 1, max: 8 }), small: fc.boolean(), abortAfter: fc.option(fc.integer({ min: 0, max: 10 }), { nil: null }) }),
        {
          minLength: 1,
          maxLength: 5,
        },
      ),
      fc.array(fc.nat(), { minLength: 60, maxLength: 60 }),
      async (slots, requests, picks) => {
        const pool = fakePool();
        const scheduler = new TileScheduler(pool, slots);
        const outcomes: Promise<string>[] = [];
        const cancels = requests.map(() => new AbortController());
        requests.forEach((r, k) => {
          const q = scheduler.queue(r.small);
          for (let i = 0; i < r.tiles; i++)
            outcomes.push(
              q.run(`r${k}t${i}`, cancels[k].signal).then(
                () => 'ok',
                () => 'aborted',
              ),
            );
        });
        for (let step = 0; step < picks.length && pool.running.length > 0; step++) {
          requests.forEach((r, k) => {
            if (r.abortAfter === step) cancels[k].abort(new Error('gone'));
          });
          const running = pool.running;
          if (running.length) pool.finish(running[picks[step] % running.length]);
          await tick();
          assert.ok(scheduler.inFlight <= slots);
        }
        while (pool.running.length) {
          pool.finish(pool.running[0]);
          await tick();
        }
        const results = await Promise.all(outcomes);
        assert.equal(new Set(pool.started).size, pool.started.length, 'no tile ran twice');
        assert.ok(pool.peak <= slots);
        requests.forEach((r, k) => {
          const own = results.slice(requests.slice(0, k).reduce((a, x) => a + x.tiles, 0)).slice(0, r.tiles);
          if (r.abortAfter === null)
            assert.ok(
              own.every((o) => o === 'ok'),
              `request ${k} finished`,
            );
        });
        assert.equal(scheduler.inFlight, 0);
      },
    ),
    { numRuns: 150 },
  );
});

test("a held request's tiles wait until its hold ends while the other requests are served; then they run", async () => {
  const pool = fakePool();
  const scheduler = new TileScheduler(pool, 2);
  const signal = new AbortController().signal;
  let full = true;
  let room: () => void = () => {};
  const held = scheduler.queue(false, () => (full ? new Promise<void>((r) => (room = r)) : null));
  const other = scheduler.queue();
  const heldDone = [0, 1, 2].map((i) => held.run(`held${i}`, signal));
  const otherDone = other.run('other0', signal);
  await tick();
  assert.deepEqual(pool.started, ['other0'], 'nothing of the held request reaches the pool');
  pool.finish('other0');
  assert.equal(await otherDone, 'done other0');
  full = false;
  room();
  await tick();
  assert.deepEqual(pool.started, ['other0', 'held0', 'held1']);
  for (const id of ['held0', 'held1']) pool.finish(id);
  await tick();
  pool.finish('held2');
  assert.equal((await Promise.all(heldDone)).length, 3);
  assert.equal(scheduler.inFlight, 0);
});
