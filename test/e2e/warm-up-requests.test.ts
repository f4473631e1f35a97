/**
 * Start-up warm-up on whole requests (src/pipeline/warm-up-requests.ts): it runs real default
 * requests through the pool behind the listening service, charges nobody, leaves no usage behind,
 * and the service then answers normally.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config.ts';
import { startService } from '../../src/service.ts';
import { postContext } from '../support/service/http.ts';
import { square } from '../support/polygons.ts';

test('the service warms up on whole requests, charges nobody, then answers', async () => {
  const lines: string[] = [];
  const dataDir = mkdtempSync(join(tmpdir(), 'cc-warm-'));
  const config = { ...loadConfig({ CITY_DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1' }), workers: 2, warmUpMs: 100, warmUpRequestsMs: 15_000 };
  const svc = await startService(config, (line) => lines.push(line));
  try {
    await svc.ready;
    const warmed = lines.map((l) => /Warmed up on (\d+) whole requests/.exec(l)).find(Boolean);
    assert.ok(warmed, `a warm-up line in the log: ${lines.join(' | ')}`);
    assert.ok(Number(warmed![1]) >= 1, 'at least one whole request ran');
    const account = (await svc.accounts.getAccount(svc.demo!.accountId))!;
    assert.equal(account.balanceKm2, 1000, 'the warm-up charged nobody');
    assert.deepEqual(await svc.accounts.usage(svc.demo!.accountId), [], 'and left no usage rows');
    const r = await postContext(svc.url, svc.demo!.key, { polygon: square(43.7345, 7.419, 300), settings: { geometry: ['buildings'] } });
    assert.equal(r.status, 200);
    assert.ok(r.json.geometry.find((g: { type: string }) => g.type === 'buildings').meshes.length > 10);
  } finally {
    await svc.close();
  }
});

test('the warm-up stops once a cycle of requests costs within 10 % of the one before', async () => {
  const { warmUpSettled } = await import('../../src/pipeline/warm-up-requests.ts');
  assert.equal(warmUpSettled([]), false);
  assert.equal(warmUpSettled([5e6]), false, 'one cycle says nothing');
  assert.equal(warmUpSettled([5e6, 3e6]), false, 'still 40 % cheaper: code is still being optimised');
  assert.equal(warmUpSettled([5e6, 3e6, 2.8e6]), true, '7 % cheaper: settled');
  assert.equal(warmUpSettled([5e6, 3e6, 3.2e6]), true, 'noise upwards: settled');
});
