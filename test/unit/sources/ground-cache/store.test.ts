/**
 * The ground cache's file (sources/ground-cache/store.ts): cells are kept per generation, a second
 * write of a cell is ignored, and the file stays within its bound by dropping its oldest cells.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GroundCacheStore } from '../../../../src/sources/ground-cache/store.ts';

const dir = mkdtempSync(join(tmpdir(), 'cc-ground-cache-'));

test('cells are kept per generation; the first write of a cell stays', () => {
  const cache = GroundCacheStore.open(join(dir, 'a.sqlite'), 1 << 26);
  cache.put('g1', 3, -4, new Uint8Array([1, 2, 3]));
  cache.put('g1', 3, -4, new Uint8Array([9]));
  assert.deepEqual([...(cache.get('g1', 3, -4) ?? [])], [1, 2, 3]);
  assert.equal(cache.get('g2', 3, -4), undefined);
  assert.equal(cache.has('g1', 3, -4), true);
  assert.equal(cache.has('g1', 4, -4), false);
  cache.close();
  // and they are still there when the file is opened again (another worker, a restart)
  const again = GroundCacheStore.open(join(dir, 'a.sqlite'), 1 << 26);
  assert.equal(again.count(), 1);
  again.close();
});

test('past its bound the file drops its oldest cells and keeps the newest', () => {
  const bound = 2 * 1024 * 1024;
  const cache = GroundCacheStore.open(join(dir, 'b.sqlite'), bound);
  const blob = new Uint8Array(64 * 1024).fill(7);
  for (let n = 0; n < 200; n++) cache.put('g', n, 0, blob); // 12.5 MB written
  cache.evict();
  assert.ok(cache.count() * blob.length <= bound, `${cache.count()} cells of 64 KB kept under a 2 MB bound`);
  assert.ok(cache.count() > 0);
  assert.ok(cache.has('g', 199, 0), 'the newest cell is kept');
  assert.equal(cache.has('g', 0, 0), false, 'the oldest is gone');
  cache.close();
});
