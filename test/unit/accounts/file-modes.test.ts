/** Issue 13.9: what the service creates on disk is readable by its own user only. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteAccountStore, ensureDemoAccount } from '../../../src/accounts/index.ts';

test('a new data directory is 0700 and the accounts database (with its WAL files) and demo key 0600', async () => {
  const dataDir = join(mkdtempSync(join(tmpdir(), 'cc-hyg-')), 'var');
  const store = await SqliteAccountStore.open(join(dataDir, 'accounts.sqlite'));
  try {
    await ensureDemoAccount(store, dataDir);
    const mode = (name: string) => statSync(join(dataDir, name)).mode & 0o777;
    assert.equal(statSync(dataDir).mode & 0o777, 0o700);
    for (const name of ['accounts.sqlite', 'accounts.sqlite-wal', 'accounts.sqlite-shm', 'demo-key.txt']) {
      assert.equal(mode(name).toString(8), '600', name);
    }
  } finally {
    await store.close();
  }
});
