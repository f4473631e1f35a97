/**
 * What an export leaves in the export directory when it does not finish: a client that leaves
 * mid-export (the export thread is stopped mid-write) leaves nothing, and what a process killed
 * with SIGKILL was staging or spilling goes with the next start's sweep, while a live
 * neighbour's work on the same directory stays.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { once } from 'node:events';
import { request } from 'undici';
import { exportStoreConfigFromEnv } from '../../src/export/store/config.ts';
import { openExportStore } from '../../src/export/store/open.ts';
import type { RunningService } from '../../src/service.ts';
import { startTestService } from '../support/service/http.ts';
import { square } from '../support/polygons.ts';
import { eventually } from '../support/service/raw-http.ts';
import { readyChild } from '../support/service/ready-child.ts';

let svc: RunningService;
before(async () => {
  svc = await startTestService();
});
after(async () => {
  await svc?.close();
});

const temps = (dir: string) => readdirSync(dir).filter((n) => n.startsWith('.tmp-'));

test('a client that leaves while the export thread writes: its staged and spill files are removed, not left for an hour', async () => {
  const dir = svc.config.exports.dir;
  const account = await svc.accounts.createAccount({ name: 'leaver', balanceKm2: 10 });
  const key = (await svc.accounts.createKey(account.id)).key;
  for (let round = 0; round < 2; round++) {
    const leave = new AbortController();
    const answer = request(`${svc.url}/v1/context`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        polygon: square(43.7365, 7.4215, 1000),
        settings: { geometry: ['buildings', 'surface', 'barriers', 'instances'] },
        export: { format: 'dxf' },
      }),
      signal: leave.signal,
    });
    answer.catch(() => {});
    // the export thread has started writing (its spill exists): leave now
    await eventually(() => temps(dir).some((n) => n.endsWith('.spill')), 'the export spills', 30_000);
    leave.abort();
    await assert.rejects(answer);
    await eventually(async () => (await svc.accounts.usage(account.id))[0]?.status === 'aborted', 'the export is aborted', 30_000);
    await eventually(() => temps(dir).length === 0, `nothing left behind (round ${round}): ${temps(dir).join(', ')}`, 10_000);
  }
  assert.equal((await svc.accounts.getAccount(account.id))!.balanceKm2, 10);
});

/** A process that stages an export file and its spill in `dir` as an export does, then waits to be killed. */
async function stagingProcess(dir: string): Promise<ChildProcess> {
  const staged = fileURLToPath(new URL('../../src/export/store/staged.ts', import.meta.url));
  return readyChild(
    `
    import { writeFileSync, mkdirSync } from 'node:fs';
    import { stagePathIn, tempPathIn } from ${JSON.stringify(staged)};
    const path = stagePathIn(${JSON.stringify(dir)});
    writeFileSync(path + '.spill', 'spilled text');
    writeFileSync(path, 'half a file');
    mkdirSync(tempPathIn(${JSON.stringify(dir)}));
    console.log('staged');
  `,
    'staged',
  );
}

test("a process killed with SIGKILL mid-export: the next start sweeps its staged, spill and put leftovers at once; a live neighbour's stay", async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'cc-left-'));
  const config = exportStoreConfigFromEnv({}, dataDir);
  mkdirSync(config.dir, { recursive: true });
  const killed = await stagingProcess(config.dir);
  const neighbour = await stagingProcess(config.dir);
  try {
    assert.equal(temps(config.dir).length, 6);
    killed.kill('SIGKILL');
    await once(killed, 'exit');
    const lines: string[] = [];
    const store = await openExportStore(config, (l) => lines.push(l)); // what a start does
    try {
      assert.equal(temps(config.dir).length, 3, `the neighbour's three stay: ${temps(config.dir).join(', ')}`);
      assert.deepEqual(lines, ['Export store: removed 3 expired or left-over file(s) at start.']);
      neighbour.kill('SIGKILL');
      await once(neighbour, 'exit');
      assert.equal(await store.sweep(), 3, 'and go with the next sweep once it is gone');
      assert.deepEqual(temps(config.dir), []);
    } finally {
      await store.close();
    }
  } finally {
    killed.kill('SIGKILL');
    neighbour.kill('SIGKILL');
  }
});
