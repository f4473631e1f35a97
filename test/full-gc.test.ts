import assert from 'node:assert/strict';
import { test } from 'node:test';
import { getHeapStatistics } from 'node:v8';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { collectAllGarbage } from '../src/pipeline/full-gc.ts';

test('collectAllGarbage frees what nothing holds any more', () => {
  let junk: unknown[] | null = Array.from({ length: 300_000 }, (_, i) => ({ i, s: `item ${i}` }));
  const before = getHeapStatistics().used_heap_size;
  junk = null;
  collectAllGarbage();
  const after = getHeapStatistics().used_heap_size;
  assert.equal(junk, null);
  assert.ok(before - after > 10 * 1024 * 1024, `freed only ${((before - after) / 1048576).toFixed(1)} MB`);
});

test('collectAllGarbage works in a worker thread (where --expose-gc cannot be passed)', async () => {
  // a plain worker thread does not get tsx's hooks: register them, then load the TypeScript worker
  const worker = new Worker(`require('tsx/cjs/api').register(); require(${JSON.stringify(fileURLToPath(new URL('./helpers/full-gc-worker.ts', import.meta.url)))});`, { eval: true });
  const { freed } = await new Promise<{ freed: number }>((resolve, reject) => { worker.once('message', resolve); worker.once('error', reject); });
  await worker.terminate();
  assert.ok(freed > 10 * 1024 * 1024, `freed only ${(freed / 1048576).toFixed(1)} MB`);
});
