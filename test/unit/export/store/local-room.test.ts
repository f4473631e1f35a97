/**
 * The local store's room (docs/exports.md "Downloads and the export store"): per-account eviction
 * that never removes another account's live link, a file over the cap refused with its reason,
 * and the checks an export meets before it is built (writable directory, free disk space, room
 * under the caps) answering 507 with a reason and Retry-After.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { ApiError } from '../../../../src/contract/errors.ts';
import { exportStoreConfigFromEnv } from '../../../../src/export/store/config.ts';
import { LocalExportStore } from '../../../../src/export/store/local.ts';
import { openExportStore } from '../../../../src/export/store/open.ts';
import { mountTmpfs, readOnlyDir } from '../../../support/stores/tmpfs.ts';

const bytes = (n: number, c = 'x') => new TextEncoder().encode(c.repeat(n));
const scratch = () => mkdtempSync(join(tmpdir(), 'cc-room-'));

function isStorageError(code: string, retry: boolean) {
  return (err: unknown) => {
    assert.ok(err instanceof ApiError, String(err));
    assert.equal(err.code, code);
    assert.equal(err.status, 507);
    assert.ok(err.details[0]?.message, 'says why');
    if (retry) assert.match(err.headers['Retry-After'] ?? '', /^[1-9]\d*$/);
    else assert.equal(err.headers['Retry-After'], undefined);
    return true;
  };
}

test("one account's new files evict its own oldest, never another account's live link; with no room left it is refused", async () => {
  const store = await new LocalExportStore({ dir: scratch(), ttlMs: 3_600_000, maxBytes: 25 }).open();
  const a = await store.put('a.ply', bytes(10, 'a'), 'application/octet-stream', 'A');
  const b1 = await store.put('b1.ply', bytes(10, 'b'), 'application/octet-stream', 'B');
  const b2 = await store.put('b2.ply', bytes(10, 'b'), 'application/octet-stream', 'B'); // B's third export (of the cap)
  assert.ok(await store.head(a.token, 'a.ply'), "A's older link stays");
  assert.equal(await store.head(b1.token, 'b1.ply'), null, "B's own oldest made room");
  assert.ok(await store.head(b2.token, 'b2.ply'));
  await store.checkRoom('C'); // 5 bytes left for C: it may try
  await assert.rejects(store.put('c.ply', bytes(10, 'c'), 'application/octet-stream', 'C'), isStorageError('export_storage_unavailable', true));
  assert.ok((await store.head(a.token, 'a.ply')) && (await store.head(b2.token, 'b2.ply')), 'a refused file evicts nothing');
  await store.put('c.ply', bytes(5, 'c'), 'application/octet-stream', 'C');
  await assert.rejects(store.checkRoom('D'), isStorageError('export_storage_unavailable', true), 'no room at all: refused before any work');
});

test('a per-account quota: an account beyond it evicts its own oldest, the others keep their room', async () => {
  const store = await new LocalExportStore({ dir: scratch(), ttlMs: 3_600_000, maxBytes: 100, accountMaxBytes: 20 }).open();
  const first = await store.put('1.ply', bytes(10), 'application/octet-stream', 'A');
  await store.put('2.ply', bytes(10), 'application/octet-stream', 'A');
  await store.put('3.ply', bytes(10), 'application/octet-stream', 'A');
  assert.equal(await store.head(first.token, '1.ply'), null);
  await assert.rejects(store.put('big.ply', bytes(21), 'application/octet-stream', 'B'), isStorageError('export_too_large', false));
});

test('a file over the cap: 507 export_too_large naming both sizes; the staged file is removed', async () => {
  const store = await new LocalExportStore({ dir: scratch(), ttlMs: 60_000, maxBytes: 1000 }).open();
  await assert.rejects(store.put('big.glb', new Uint8Array(2000), 'model/gltf-binary', 'A'), (err: unknown) => {
    isStorageError('export_too_large', false)(err);
    assert.deepEqual([(err as ApiError).details[0]!.sizeBytes, (err as ApiError).details[0]!.maxBytes], [2000, 1000]);
    return true;
  });
});

test('low free disk space: expired files are swept first, then 507 with Retry-After before any export is built', async () => {
  let free = 10;
  let shift = 0;
  const dir = scratch();
  const store = await new LocalExportStore({
    dir,
    ttlMs: 1000,
    maxBytes: 1000,
    minFreeBytes: 100,
    now: () => Date.now() + shift,
    freeBytes: async () => free,
  }).open();
  await store.put('old.ply', bytes(10), 'application/octet-stream', 'A');
  shift = 5000; // it expired
  free = 10;
  await assert.rejects(store.checkRoom('A'), isStorageError('export_storage_unavailable', true));
  assert.deepEqual(readdirSync(dir), [], 'the expired file went on the way');
  free = 1000;
  await store.checkRoom('A');
});

test('a read-only export directory: 507 export_storage_unavailable naming the errno, before any work', async (t) => {
  const ro = readOnlyDir();
  if (!ro) return t.skip('cannot make a directory this process may not write (root without mount)');
  try {
    const store = new LocalExportStore({ dir: ro.dir, ttlMs: 60_000, maxBytes: 1000 });
    await assert.rejects(store.checkRoom('A'), (err: unknown) => {
      isStorageError('export_storage_unavailable', true)(err);
      assert.match((err as ApiError).message, /not writable \((EROFS|EACCES)\)/);
      return true;
    });
    await assert.rejects(store.put('x.ply', bytes(10), 'application/octet-stream', 'A'), isStorageError('export_storage_unavailable', true));
  } finally {
    ro.close();
  }
});

test('a full disk (a 256 kB tmpfs): the put fails with ENOSPC and leaves nothing; makeRoom removes only the account’s own files', async (t) => {
  const disk = mountTmpfs(256);
  if (!disk) return t.skip('cannot mount a tmpfs (needs root)');
  try {
    const store = await new LocalExportStore({ dir: disk.dir, ttlMs: 60_000, maxBytes: 10 << 20 }).open();
    const others = await store.put('b.ply', bytes(100_000, 'b'), 'application/octet-stream', 'B');
    const own = await store.put('a.ply', bytes(100_000, 'a'), 'application/octet-stream', 'A');
    await assert.rejects(store.put('big.ply', bytes(200_000), 'application/octet-stream', 'A'), (err: NodeJS.ErrnoException) => err.code === 'ENOSPC');
    assert.deepEqual(readdirSync(disk.dir).sort(), [others.token, own.token].sort(), 'no temp left behind');
    assert.equal(await store.makeRoom('A'), 1);
    assert.equal(await store.head(own.token, 'a.ply'), null);
    assert.ok(await store.head(others.token, 'b.ply'), "another account's link stays");
    assert.equal(await store.makeRoom('A'), 0, 'nothing of its own left: retrying cannot help');
  } finally {
    disk.close();
  }
});

test('opening the store on a directory it cannot write warns loudly at start (the JSON service still runs; every export then gets the 507)', async (t) => {
  const ro = readOnlyDir();
  if (!ro) return t.skip('cannot make a directory this process may not write (root without mount)');
  try {
    const lines: string[] = [];
    const store = await openExportStore({ ...exportStoreConfigFromEnv({}, ro.dir), dir: ro.dir, minFreeBytes: 0 }, (l) => lines.push(l));
    await store.close();
    assert.equal(lines.length, 1, lines.join('\n'));
    assert.match(
      lines[0]!,
      /^WARNING: exports will be refused until this is fixed: The export could not be stored: the export directory is not writable \((EROFS|EACCES)\)/,
    );
  } finally {
    ro.close();
  }
});
