import assert from 'node:assert/strict';
import { test } from 'node:test';
import { text } from 'node:stream/consumers';
import type { ApiError } from '../../../src/contract/errors.ts';
import type { ExportStore } from '../../../src/export/store/types.ts';

export interface StoreUnderTest {
  store: ExportStore;
  /** Moves the store's clock (head/read expiry) forward. */
  advance(ms: number): void;
  close(): Promise<void>;
}

export type MakeStore = (options: { ttlMs: number; maxBytes: number }) => Promise<StoreUnderTest>;

const HOUR = 3_600_000;
const bytes = (s: string) => new TextEncoder().encode(s);

async function readAll(store: ExportStore, token: string, name: string, range?: { start: number; end: number }): Promise<string | null> {
  const stream = await store.read(token, name, range);
  return stream ? text(stream as AsyncIterable<Uint8Array> as NodeJS.ReadableStream) : null;
}

/**
 * The behaviour every export store backend must show; each backend's test file runs it.
 * `pause` separates puts whose age order the cap must see (S3 listing times are whole seconds).
 */
export function exportStoreSuite(label: string, make: MakeStore, pause = 0): void {
  test(`${label}: put, then head and read the same bytes under an unguessable token`, async () => {
    const t = await make({ ttlMs: HOUR, maxBytes: 1 << 20 });
    try {
      const name = 'Monaco – La Condamine (buildings).glb';
      const put = await t.store.put(name, bytes('hello export'), 'model/gltf-binary');
      assert.match(put.token, /^[A-Za-z0-9_-]{24}$/);
      assert.equal(Buffer.from(put.token, 'base64url').length, 18, '144 random bits');
      assert.equal(put.size, 12);
      assert.match(put.etag, /^"[A-Za-z0-9_-]+"$/);
      assert.deepEqual(await t.store.head(put.token, name), put);
      assert.equal(await readAll(t.store, put.token, name), 'hello export');
      assert.equal(await readAll(t.store, put.token, name, { start: 6, end: 11 }), 'export');
      assert.equal(await readAll(t.store, put.token, name, { start: 0, end: 0 }), 'h');
      // Wrong name, unknown token, a token that is not one: all unknown.
      assert.equal(await t.store.head(put.token, 'other.glb'), null);
      assert.equal(await t.store.read(put.token, 'other.glb'), null);
      assert.equal(await t.store.head('A'.repeat(24), name), null);
      assert.equal(await t.store.head(`../${put.token}`, name), null);
      const again = await t.store.put(name, bytes('hello export'), 'model/gltf-binary');
      assert.notEqual(again.token, put.token);
      assert.equal(again.etag, put.etag, 'the ETag follows the bytes');
      await assert.rejects(t.store.put('a/b.glb', bytes('x'), 'model/gltf-binary'), /file name/);
    } finally {
      await t.close();
    }
  });

  test(`${label}: a file is gone after its lifetime, and the sweep removes it`, async () => {
    const t = await make({ ttlMs: HOUR, maxBytes: 1 << 20 });
    try {
      const old = await t.store.put('old.stl', bytes('old'), 'model/stl');
      const putAt = Date.now();
      assert.ok(old.expiresAt <= putAt + HOUR && old.expiresAt > putAt + HOUR - 60_000);
      assert.equal(await t.store.sweep(), 0, 'nothing expired yet');
      t.advance(HOUR + 1);
      assert.equal(await t.store.head(old.token, 'old.stl'), null, 'expired before any sweep');
      assert.equal(await t.store.read(old.token, 'old.stl'), null);
      t.advance(-HOUR - 1);
      await new Promise((r) => setTimeout(r, Math.max(pause, 100)));
      const fresh = await t.store.put('fresh.stl', bytes('fresh'), 'model/stl');
      assert.equal(await t.store.sweep(putAt + HOUR + 50), 1, 'only the old file was expired then');
      assert.equal(await t.store.head(old.token, 'old.stl'), null, 'deleted, not just hidden');
      assert.ok(await t.store.head(fresh.token, 'fresh.stl'));
    } finally {
      await t.close();
    }
  });

  test(`${label}: never more than the size cap; the oldest files are evicted first`, async () => {
    const t = await make({ ttlMs: HOUR, maxBytes: 25 });
    try {
      const a = await t.store.put('a.ply', bytes('a'.repeat(10)), 'application/octet-stream');
      await new Promise((r) => setTimeout(r, pause));
      const b = await t.store.put('b.ply', bytes('b'.repeat(10)), 'application/octet-stream');
      await new Promise((r) => setTimeout(r, pause));
      const c = await t.store.put('c.ply', bytes('c'.repeat(10)), 'application/octet-stream');
      assert.equal(await t.store.head(a.token, 'a.ply'), null, 'the oldest made room');
      assert.ok(await t.store.head(b.token, 'b.ply'));
      assert.ok(await t.store.head(c.token, 'c.ply'));
      await assert.rejects(t.store.put('big.ply', new Uint8Array(26), 'application/octet-stream'), /more than the .* this server stores for one account/);
      assert.ok(await t.store.head(b.token, 'b.ply'), 'a refused file evicts nothing');
      // Puts at the same moment share the cap too.
      const together = await Promise.all(['d', 'e', 'f', 'g'].map((n) => t.store.put(`${n}.ply`, bytes(n.repeat(10)), 'application/octet-stream')));
      const live = (await Promise.all([b, c, ...together].map((p) => t.store.head(p.token, p.name)))).filter(Boolean);
      assert.ok(live.length <= 2, `${live.length} files of 10 bytes under a 25-byte cap`);
    } finally {
      await t.close();
    }
  });

  test(`${label}: an account's new file evicts its own oldest, never another account's live file; without room it is refused (507, Retry-After)`, async () => {
    const t = await make({ ttlMs: HOUR, maxBytes: 25 });
    try {
      const put = (name: string, owner: string) => t.store.put(name, bytes(name[0]!.repeat(10)), 'application/octet-stream', owner);
      const a = await put('a.ply', 'A');
      await new Promise((r) => setTimeout(r, pause));
      const b1 = await put('b1.ply', 'B');
      await new Promise((r) => setTimeout(r, pause));
      const b2 = await put('b2.ply', 'B');
      assert.ok(await t.store.head(a.token, 'a.ply'), "A's older file stays");
      assert.equal(await t.store.head(b1.token, 'b1.ply'), null, "B's own oldest made room");
      assert.ok(await t.store.head(b2.token, 'b2.ply'));
      await assert.rejects(put('c.ply', 'C'), (err: ApiError) => err.code === 'export_storage_unavailable' && /^\d+$/.test(err.headers['Retry-After'] ?? ''));
      await t.store.checkRoom('C'); // 5 bytes left: C may still try a smaller file
      assert.ok((await t.store.head(a.token, 'a.ply')) && (await t.store.head(b2.token, 'b2.ply')), 'the refusal evicted nothing');
    } finally {
      await t.close();
    }
  });
}
