/**
 * TaskOrder over random completion orders: every result is handed over once, in task order, and
 * no task starts `window` or more tasks beyond the first one not yet handed over.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { TaskOrder } from '../../../src/pipeline/task-order.ts';

const settle = () => new Promise<void>((r) => setImmediate(r));

test('results go out in task order whatever order the tasks finish in, with at most `window` tasks started ahead', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.integer({ min: 1, max: 40 }),
      fc.integer({ min: 1, max: 12 }),
      fc.array(fc.nat(), { minLength: 40, maxLength: 40 }),
      async (count, window, picks) => {
        const handed: number[] = [];
        const order = new TaskOrder<string>(count, window, (n, v) => {
          assert.equal(v, `result ${n}`);
          handed.push(n);
        });
        const started = new Set<number>(),
          finished = new Set<number>();
        for (let n = 0; n < count; n++) void order.admit(n).then(() => started.add(n));
        for (let step = 0; finished.size < count; step++) {
          await settle();
          for (const n of started) assert.ok(n < handed.length + window, `task ${n} started with ${handed.length} handed over, window ${window}`);
          const running = [...started].filter((n) => !finished.has(n));
          assert.ok(running.length > 0, 'a task can always run');
          const n = running[picks[step % picks.length] % running.length];
          finished.add(n);
          order.done(n, `result ${n}`);
        }
        assert.deepEqual(
          handed,
          Array.from({ length: count }, (_, n) => n),
        );
      },
    ),
    { numRuns: 200 },
  );
});

test('releaseAll lets the waiting tasks go (a cancelled request)', async () => {
  const order = new TaskOrder<number>(5, 2, () => {});
  const started: number[] = [];
  for (let n = 0; n < 5; n++) void order.admit(n).then(() => started.push(n));
  await settle();
  assert.deepEqual(started, [0, 1]);
  order.releaseAll();
  await settle();
  assert.deepEqual(started, [0, 1, 2, 3, 4]);
});
