/**
 * A short seeded slice of `npm run fuzz` (issue 13): generated bodies and broken framing against
 * the app on loopback (stand-in pool). No 5xx, every error answer the JSON error body, no
 * connection lost on a well-framed request.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runFuzz } from '../support/fuzz/run.ts';
import { startFakeApp } from '../support/service/fake-app.ts';

test('fuzz slice: 1,500 seeded cases, no 5xx, no non-JSON error body, no unexpected reset', async () => {
  const app = await startFakeApp({ maxBodyBytes: 5 << 20, limits: { idleTimeoutMs: 500 } });
  try {
    const { key } = await app.newKey(1000);
    const report = await runFuzz({ base: app.url, key, count: 1500, seed: 1313, concurrency: 4 });
    assert.equal(report.cases, 1500);
    assert.deepEqual(report.findings, []);
    assert.equal(report.serverErrors + report.busy, 0, JSON.stringify(report.statuses));
    assert.ok((report.statuses['200'] ?? 0) > 0, 'some valid bodies were served');
    assert.ok(Object.keys(report.statuses).filter((s) => /^4/.test(s)).length >= 5, JSON.stringify(report.statuses));
  } finally {
    await app.close();
  }
});
