import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { exportStoreConfigFromEnv } from '../../../../src/export/store/config.ts';
import { newToken } from '../../../../src/export/store/entry.ts';
import { LocalExportStore } from '../../../../src/export/store/local.ts';
import { openExportStore } from '../../../../src/export/store/open.ts';
import { claimTemp, exportStagingDir, isOrphanTemp, releaseTemp, stagePathIn, sweepStaged } from '../../../../src/export/store/staged.ts';
import { writeStagedFile } from '../../../../src/export/stage-file.ts';
import { exportStoreSuite } from '../../../support/stores/export-store-suite.ts';

exportStoreSuite('local store', async ({ ttlMs, maxBytes }) => {
  let shift = 0;
  const store = await new LocalExportStore({ dir: mkdtempSync(join(tmpdir(), 'cc-exports-')), ttlMs, maxBytes, now: () => Date.now() + shift }).open();
  return {
    store,
    advance: (ms) => {
      shift += ms;
    },
    close: () => store.close(),
  };
});

test('tokens: 144 random bits, base64url, no repeats, every character in use', () => {
  const tokens = new Set(Array.from({ length: 2000 }, newToken));
  assert.equal(tokens.size, 2000);
  const chars = new Set([...tokens].join(''));
  assert.equal(chars.size, 64, 'all 64 base64url characters appear');
  for (const t of tokens) assert.match(t, /^[A-Za-z0-9_-]{24}$/);
});

test('local store: token directory with file and sidecar, no temp left; a new instance sees it', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cc-exports-'));
  const store = await new LocalExportStore({ dir, ttlMs: 60_000, maxBytes: 1000 }).open();
  const put = await store.put('x.dxf', new TextEncoder().encode('0\nEOF\n'), 'image/vnd.dxf');
  assert.deepEqual(readdirSync(dir), [put.token]);
  assert.deepEqual(readdirSync(join(dir, put.token)).sort(), ['file', 'meta.json']);
  const reopened = await new LocalExportStore({ dir, ttlMs: 60_000, maxBytes: 1000 }).open();
  assert.deepEqual(await reopened.head(put.token, 'x.dxf'), put);
});

test('local store: a file put in pieces is stored whole, with the size and ETag of the whole', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cc-exports-'));
  const store = await new LocalExportStore({ dir, ttlMs: 60_000, maxBytes: 1000 }).open();
  const enc = (s: string) => new TextEncoder().encode(s);
  const whole = await store.put('w.ifc', enc('ISO-10303-21;\nEND'), 'application/x-step');
  const pieces = await store.put('p.ifc', [enc('ISO-10303-21;'), enc(''), enc('\nEND')], 'application/x-step');
  assert.deepEqual([pieces.size, pieces.etag], [whole.size, whole.etag]);
  assert.equal(readFileSync(join(dir, pieces.token, 'file'), 'utf8'), 'ISO-10303-21;\nEND');
});

test('local store: a file staged by an export thread in its directory is moved in, same size and ETag; one over the cap is removed', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cc-exports-'));
  const store = await new LocalExportStore({ dir, ttlMs: 60_000, maxBytes: 1000 }).open();
  const enc = (s: string) => new TextEncoder().encode(s);
  const whole = await store.put('w.ifc', enc('ISO-10303-21;\nEND'), 'application/x-step');
  const staged = writeStagedFile(stagePathIn(dir), [enc('ISO-10303-21;'), enc('\nEND')]);
  const put = await store.put('s.ifc', staged, 'application/x-step');
  assert.deepEqual([put.size, put.etag], [whole.size, whole.etag]);
  assert.equal(readFileSync(join(dir, put.token, 'file'), 'utf8'), 'ISO-10303-21;\nEND');
  assert.deepEqual(readdirSync(dir).sort(), [put.token, whole.token].sort(), 'the staged file moved');
  const big = writeStagedFile(stagePathIn(dir), new Uint8Array(2000));
  await assert.rejects(store.put('big.ifc', big, 'application/x-step'), /more than the .* this server stores for one account/);
  assert.ok(!existsSync(big.stagedPath), 'a refused staged file is removed');
});

test('the opened local store is where export threads stage their files, until it closes', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cc-data-'));
  const store = await openExportStore(exportStoreConfigFromEnv({}, dir), () => {});
  assert.equal(exportStagingDir(), join(dir, 'exports'));
  await store.close();
  assert.equal(exportStagingDir(), null);
});

test('staging directory sweep (S3): staged and spill files older than an hour go, nothing else', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cc-stage-'));
  const old = writeStagedFile(stagePathIn(dir, '.spill'), new Uint8Array(10)).stagedPath;
  const fresh = writeStagedFile(stagePathIn(dir), new Uint8Array(10)).stagedPath;
  claimTemp(fresh); // an export of this process still works on it
  writeFileSync(join(dir, 'other'), 'x');
  const hoursAgo = new Date(Date.now() - 2 * 3_600_000);
  utimesSync(old, hoursAgo, hoursAgo);
  utimesSync(join(dir, 'other'), hoursAgo, hoursAgo);
  assert.equal(await sweepStaged(dir), 1);
  assert.ok(!existsSync(old) && existsSync(fresh) && existsSync(join(dir, 'other')));
});

test("a temp name says which process made it: a gone process's leftovers are orphans at once, a live one's only after an hour", () => {
  const now = Date.now();
  const mine = basename(stagePathIn('/x'));
  const tag = /^\.tmp-stage-([0-9a-f]{8})\.(\d+)\.([0-9a-f]{8})-/.exec(mine)!;
  assert.equal(Number(tag[2]), process.pid);
  const named = (pid: number, run = tag[3], host = tag[1]) => `.tmp-stage-${host}.${pid}.${run}-00ff.spill`;
  // a process id that no longer exists on this host: a child that exited
  const deadPid = spawnSync(process.execPath, ['-e', '0']).pid!;
  assert.equal(isOrphanTemp(named(deadPid), now, now), true, 'its process is gone');
  assert.equal(isOrphanTemp(named(process.ppid), now, now), false, 'a live neighbour is working on it');
  assert.equal(isOrphanTemp(named(process.ppid), now - 2 * 3_600_000, now), true, 'but not for more than an hour');
  assert.equal(isOrphanTemp(named(process.pid, 'deadbeef'), now, now), true, 'this process id in an earlier run (a restart)');
  assert.equal(isOrphanTemp(named(deadPid, tag[3], '00000000'), now, now), false, 'another host: only its age tells');
  assert.equal(isOrphanTemp(mine, now, now), true, 'made here, not in use');
  claimTemp(join('/x', mine));
  assert.equal(isOrphanTemp(mine, now, now), false, 'in use here');
  assert.equal(isOrphanTemp(`${mine}.spill`, now, now), false, 'its spill too');
  releaseTemp(join('/x', mine));
  assert.equal(isOrphanTemp('other-file', 0, now), false, 'not a temp name');
});

test('local store: the sweep removes temp directories a dead put left behind (after an hour), and broken entries', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cc-exports-'));
  const store = await new LocalExportStore({ dir, ttlMs: 60_000, maxBytes: 1000 }).open();
  mkdirSync(join(dir, '.tmp-dead'));
  mkdirSync(join(dir, '.tmp-busy'));
  const old = (Date.now() - 2 * 3_600_000) / 1000;
  utimesSync(join(dir, '.tmp-dead'), old, old);
  mkdirSync(join(dir, newToken())); // no sidecar
  assert.equal(await store.sweep(), 2);
  assert.deepEqual(readdirSync(dir), ['.tmp-busy']);
  assert.equal(existsSync(join(dir, '.tmp-dead')), false);
});

test('openExportStore: sweeps what expired while the service was down, then on its timer until closed', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cc-exports-'));
  const past = await new LocalExportStore({ dir, ttlMs: 1000, maxBytes: 1000, now: () => Date.now() - 5000 }).open();
  const stale = await past.put('stale.obj', new Uint8Array(3), 'text/plain');
  const lines: string[] = [];
  const config = { ...exportStoreConfigFromEnv({}, dir), dir, ttlMs: 300, sweepIntervalMs: 50 };
  const store = await openExportStore(config, (l) => lines.push(l));
  assert.equal(existsSync(join(dir, stale.token)), false, 'swept at open');
  assert.match(lines.join('\n'), /removed 1 expired/);
  const soon = await store.put('soon.obj', new Uint8Array(3), 'text/plain');
  await new Promise((r) => setTimeout(r, 600));
  assert.equal(existsSync(join(dir, soon.token)), false, 'swept by the timer');
  await store.close();
  const later = await new LocalExportStore({ dir, ttlMs: 1, maxBytes: 1000, now: () => Date.now() - 10_000 }).open();
  const kept = await later.put('kept.obj', new Uint8Array(3), 'text/plain');
  await new Promise((r) => setTimeout(r, 200));
  assert.equal(existsSync(join(dir, kept.token)), true, 'no sweep after close');
});
