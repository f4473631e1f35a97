/**
 * Exports run in their own threads (src/export/export-pool.ts): started by the first export,
 * gone again once idle, so the writers' WebAssembly memory does not stay in the process; the
 * tile workers never run a writer.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { postContext, startTestService } from '../support/service/http.ts';
import { square } from '../support/polygons.ts';

test('an export starts an export thread, which exits after the idle timeout; the tile pool runs no writer', { timeout: 120_000 }, async () => {
  const svc = await startTestService({ exportPool: { threads: 1, idleTimeoutMs: 300 } });
  try {
    assert.equal(svc.exportPool.threads.length, 0, 'no export thread before the first export');
    const tileTasksBefore = svc.pool.completed;
    const r = await postContext(svc.url, svc.demo!.key, { polygon: square(43.7345, 7.419, 200), export: { format: 'glb' } });
    assert.equal(r.status, 200, r.text);
    assert.equal(svc.exportPool.completed, 1, 'the writer ran in the export pool');
    assert.ok(svc.pool.completed > tileTasksBefore, 'tiles ran in the tile pool');
    assert.equal(svc.exportPool.threads.length, 1);
    const deadline = Date.now() + 10_000;
    while (svc.exportPool.threads.length > 0 && Date.now() < deadline) await new Promise((res) => setTimeout(res, 50));
    assert.equal(svc.exportPool.threads.length, 0, 'the idle export thread exited');
    const again = await postContext(svc.url, svc.demo!.key, { polygon: square(43.7345, 7.419, 200), export: { format: 'obj' } });
    assert.equal(again.status, 200, 'a new thread starts for the next export');
  } finally {
    await svc.close();
  }
});
