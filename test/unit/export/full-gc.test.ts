import assert from 'node:assert/strict';
import { test } from 'node:test';
import { getHeapStatistics } from 'node:v8';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { startFullGc } from '../../../src/export/full-gc.ts';
import { freedWithin } from '../../support/checks/heap-freed.ts';

test('startFullGc frees what nothing holds any more, without waiting for allocation to trigger it', async () => {
  let junk: unknown[] | null = Array.from({ length: 300_000 }, (_, i) => ({ i, s: `item ${i}` }));
  const before = getHeapStatistics().used_heap_size;
  junk = null;
  startFullGc();
  const freed = await freedWithin(before, 1000);
  assert.equal(junk, null);
  assert.ok(freed > 10 * 1024 * 1024, `freed only ${(freed / 1048576).toFixed(1)} MB`);
});

test('startFullGc runs in a worker thread, where --expose-gc cannot be passed (it would throw if gc were missing there)', async () => {
  // a plain worker thread does not get tsx's hooks: register them, then load the TypeScript worker
  const worker = new Worker(
    `require('tsx/cjs/api').register(); require(${JSON.stringify(fileURLToPath(new URL('../../support/checks/full-gc-worker.ts', import.meta.url)))});`,
    { eval: true },
  );
  const { freed } = await new Promise<{ freed: number }>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  await worker.terminate();
  assert.ok(freed > 10 * 1024 * 1024, `freed only ${(freed / 1048576).toFixed(1)} MB`);
});
