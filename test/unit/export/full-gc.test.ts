import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { exposeGcToNewThreads } from '../../../src/export/full-gc.ts';

const GC_WORKER = fileURLToPath(new URL('../../support/checks/full-gc-worker.ts', import.meta.url));
const FULL_GC = fileURLToPath(new URL('../../../src/export/full-gc.ts', import.meta.url));

test('startFullGc frees what nothing holds any more in a thread started after exposeGcToNewThreads (--expose-gc cannot be passed to a thread)', async () => {
  exposeGcToNewThreads();
  // a plain worker thread does not get tsx's hooks: register them, then load the TypeScript worker
  const worker = new Worker(`require('tsx/cjs/api').register(); require(${JSON.stringify(GC_WORKER)});`, { eval: true });
  const { freed, hasGc } = await new Promise<{ freed: number; hasGc: boolean }>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  await worker.terminate();
  assert.ok(hasGc, 'the thread has gc from its start');
  assert.ok(freed > 10 * 1024 * 1024, `freed only ${(freed / 1048576).toFixed(1)} MB`);
});

test('threads terminated at any moment of their start and after-export collection print nothing (no V8 bootstrap failure)', () => {
  // In a child process, as V8 writes such failures straight to the process's output. Each thread
  // starts its collection at once and is terminated 0–4 ms after it said so: with the collection
  // function built in a new vm context, about 1 in 20 such threads printed "Exception thrown
  // during bootstrapping" and the vm module's source.
  // the threads inherit the child's --import tsx and --input-type=module
  const thread = [
    "import { parentPort } from 'node:worker_threads';",
    `import { startFullGc } from ${JSON.stringify(FULL_GC)};`,
    'parentPort.postMessage(typeof globalThis.gc);',
    'startFullGc();',
    'const junk = []; for (let k = 0; k < 1e5; k++) junk.push({ k });',
    'startFullGc();',
  ].join('\n');
  const program = `
    import { Worker } from 'node:worker_threads';
    import { exposeGcToNewThreads } from ${JSON.stringify(FULL_GC)};
    exposeGcToNewThreads();
    let withGc = 0;
    for (let i = 0; i < 40; i++) {
      const w = new Worker(${JSON.stringify(thread)}, { eval: true });
      if ((await new Promise((r) => w.once('message', r))) === 'function') withGc++;
      await new Promise((r) => setTimeout(r, i % 5));
      await w.terminate();
    }
    console.log('threads with gc: ' + withGc);
  `;
  const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', program], { encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
  assert.equal(run.stderr, '');
  assert.equal(run.stdout.trim(), 'threads with gc: 40');
});
