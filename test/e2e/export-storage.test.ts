/**
 * Storage failures through the real export flow (the service's pool and accounts, Monaco data):
 * each answers 507 with a reason — and `Retry-After` when waiting can help — instead of a bare
 * 500 after all the work; a store that already cannot take a file says so before anything is
 * built or reserved; a full disk met mid-export makes room (never from another account) and tries
 * once more; one account's exports never evict another's live links. Nothing failed is charged.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { LocalExportStore } from '../../src/export/store/local.ts';
import { exportStagingDir, setExportStagingDir } from '../../src/export/store/staged.ts';
import type { ExportDeps } from '../../src/server/export-handler.ts';
import type { RunningService } from '../../src/service.ts';
import { postContext } from '../support/service/http.ts';
import { ORIGIN, POLYGON, startExportApp, type ExportApp } from '../support/service/export-app.ts';
import { MemoryExportStore } from '../support/stores/memory-export-store.ts';
import { mountTmpfs, readOnlyDir } from '../support/stores/tmpfs.ts';

let svc: RunningService;
let url: string;
let app: ExportApp;
const memory = new MemoryExportStore();
const exportDeps: ExportDeps = { store: memory };
const logLines: string[] = [];

before(async () => {
  app = await startExportApp(exportDeps, (l) => logLines.push(l));
  ({ svc, url } = app);
});
after(async () => {
  await app?.close();
});

async function newAccount(balanceKm2 = 10) {
  const account = await svc.accounts.createAccount({ name: `s${Math.random()}`, balanceKm2, active: true });
  return { id: account.id, key: (await svc.accounts.createKey(account.id, 'development')).key };
}
const balanceOf = async (id: number) => (await svc.accounts.getAccount(id))!.balanceKm2;
const body = { polygon: POLYGON, origin: ORIGIN, settings: { geometry: ['buildings'] }, export: { format: 'glb' } };
const scratch = () => mkdtempSync(join(tmpdir(), 'cc-store-'));
const enospc = () => Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });

/** Runs `fn` with `store` as the app's export store (and staging directory, for a local one). */
async function withStore<T>(store: ExportDeps['store'], fn: () => Promise<T>, stageIn?: string): Promise<T> {
  const staging = exportStagingDir();
  exportDeps.store = store;
  if (stageIn) setExportStagingDir(stageIn);
  try {
    return await fn();
  } finally {
    exportDeps.store = memory;
    setExportStagingDir(staging);
  }
}

function assertStorageError(a: { status: number; json: any; headers: Record<string, unknown> }, code: string, retry: boolean): void {
  assert.equal(a.status, 507, JSON.stringify(a.json));
  assert.equal(a.json.code, code);
  assert.ok(a.json.details[0]?.message, 'says why');
  if (retry) assert.match(String(a.headers['retry-after']), /^[1-9]\d*$/);
  else assert.equal(a.headers['retry-after'], undefined);
}

test('a file over CITY_EXPORT_MAX_MB: 507 export_too_large naming the sizes, not charged, no Retry-After', async () => {
  const { id, key } = await newAccount();
  const a = await withStore(new LocalExportStore({ dir: scratch(), ttlMs: 60_000, maxBytes: 1000 }), () => postContext(url, key, body));
  assertStorageError(a, 'export_too_large', false);
  assert.match(a.json.error, /more than the 1 kB this server stores/);
  assert.equal(a.json.details[0].maxBytes, 1000);
  assert.ok(a.json.details[0].sizeBytes > 1000);
  assert.equal(await balanceOf(id), 10);
});

test('a read-only export directory: 507 export_storage_unavailable with Retry-After at once, before anything is built or reserved', async (t) => {
  const ro = readOnlyDir();
  if (!ro) return t.skip('cannot make a directory this process may not write (root without mount)');
  try {
    const { id, key } = await newAccount();
    const from = logLines.length;
    const a = await withStore(new LocalExportStore({ dir: ro.dir, ttlMs: 60_000, maxBytes: 1 << 30 }), () => postContext(url, key, body));
    assertStorageError(a, 'export_storage_unavailable', true);
    assert.match(a.json.error, /not writable/);
    assert.deepEqual(await svc.accounts.usage(id), [], 'nothing was reserved: the export never started');
    assert.ok(!logLines.slice(from).some((l) => /^export glb failed after/.test(l)), 'no build ran');
  } finally {
    await ro.close();
  }
});

test('a simulated full disk: one ENOSPC makes room and the export is tried once more (200, charged once); twice, or nothing to remove, is 507 with Retry-After, uncharged', async () => {
  const store = new MemoryExportStore();
  const { id, key } = await newAccount();
  await withStore(store, async () => {
    store.putErrors.push(enospc());
    const once = await postContext(url, key, body);
    assert.equal(once.status, 200, once.text);
    assert.equal(store.makeRoomCalls, 1);
    assert.equal(store.owners.get(/\/v1\/exports\/([^/]+)\//.exec(once.json.downloadUrl)![1]!), String(id), 'stored as this account’s');
    const charged = await balanceOf(id);
    assert.ok(charged < 10);

    store.putErrors.push(enospc(), enospc());
    const twice = await postContext(url, key, body);
    assertStorageError(twice, 'export_storage_unavailable', true);
    assert.match(twice.json.error, /disk .* is full/);
    assert.equal(store.makeRoomCalls, 2, 'room is made once per export');

    store.roomMade = 0;
    store.putErrors.push(enospc());
    const nothing = await postContext(url, key, body);
    assertStorageError(nothing, 'export_storage_unavailable', true);
    assert.equal(await balanceOf(id), charged, 'the failed exports are not charged');
  });
});

test("a real full disk (a small tmpfs holding the export files): another account's file is never removed to make room (507); the account's own oldest is, and its export succeeds", async (t) => {
  const disk = mountTmpfs(512);
  if (!disk) return t.skip('cannot mount a tmpfs (needs root)');
  try {
    const store = await new LocalExportStore({ dir: disk.dir, ttlMs: 3_600_000, maxBytes: 1 << 30 }).open();
    const a = await newAccount();
    const b = await newAccount();
    // A's earlier file fills the disk but for a few kB
    const old = await store.put('old.glb', new Uint8Array(500 * 1024), 'model/gltf-binary', String(a.id));
    const refused = await withStore(store, () => postContext(url, b.key, body), disk.dir);
    assertStorageError(refused, 'export_storage_unavailable', true);
    assert.ok(await store.head(old.token, 'old.glb'), "A's link survives B's export");
    assert.equal(await balanceOf(b.id), 10);
    const own = await withStore(store, () => postContext(url, a.key, body), disk.dir);
    assert.equal(own.status, 200, own.text);
    assert.equal(await store.head(old.token, 'old.glb'), null, "A's own oldest made room");
    const res = await request(own.json.downloadUrl.replace(/^http:\/\/[^/]+/, url));
    await res.body.dump();
  } finally {
    await disk.close();
  }
});

test("one account's exports never evict another's live link: B's third export under a cap that holds two and a half files evicts B's first, not A's", async () => {
  const sized = await postContext(url, (await newAccount()).key, body);
  const size = memory.bytesOf(sized.json.downloadUrl)!.length;
  const store = await new LocalExportStore({ dir: scratch(), ttlMs: 3_600_000, maxBytes: Math.floor(2.5 * size) }).open();
  const a = await newAccount();
  const b = await newAccount();
  const token = (u: string) => /\/v1\/exports\/([^/]+)\//.exec(u)![1]!;
  const name = (u: string) => decodeURIComponent(u.split('/').pop()!);
  await withStore(store, async () => {
    const first = await postContext(url, a.key, body);
    const links = [];
    for (let n = 0; n < 3; n++) links.push((await postContext(url, b.key, body)).json.downloadUrl as string);
    assert.ok(await store.head(token(first.json.downloadUrl), name(first.json.downloadUrl)), "A's link still works");
    assert.equal(await store.head(token(links[0]!), name(links[0]!)), null, "B's oldest went");
    assert.ok(await store.head(token(links[2]!), name(links[2]!)));
    // C finds the store full of A's and B's live files: refused before any work, told when to retry
    const c = await newAccount();
    const tight = await new LocalExportStore({ dir: scratch(), ttlMs: 3_600_000, maxBytes: size }).open();
    await tight.put('x.glb', new Uint8Array(size), 'model/gltf-binary', String(a.id));
    exportDeps.store = tight;
    const refused = await postContext(url, c.key, body);
    assertStorageError(refused, 'export_storage_unavailable', true);
    assert.ok(Number(refused.headers['retry-after']) > 3000, 'until the first file expires (an hour)');
    assert.deepEqual(await svc.accounts.usage(c.id), []);
  });
});
