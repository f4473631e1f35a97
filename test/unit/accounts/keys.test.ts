/** API keys on SQLite: stored as hashes only (the paths through the store: test/support/accounts/account-store-suite.ts). */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { SqliteAccountStore, bearerToken, type AccountStoreOptions } from '../../../src/accounts/index.ts';

const dirs: string[] = [];
function tempStore(options: AccountStoreOptions = {}): { store: SqliteAccountStore; path: string } {
  const dir = mkdtempSync(join(tmpdir(), 'cc-keys-'));
  dirs.push(dir);
  const path = join(dir, 'accounts.sqlite');
  return { store: SqliteAccountStore.openNow(path, options), path };
}
after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('bearerToken', () => {
  it('extracts the token from a header value', async () => {
    assert.equal(bearerToken('Bearer abc'), 'abc');
    assert.equal(bearerToken('BEARER\tabc'), 'abc');
    assert.equal(bearerToken('abc'), 'abc');
    assert.equal(bearerToken('Bearer '), undefined);
    assert.equal(bearerToken(undefined), undefined);
  });
});

describe('storage', () => {
  it('keeps no plain key anywhere in the database files, only hashes', async () => {
    const { store, path } = tempStore();
    const account = await store.createAccount({ name: 'secretive', balanceKm2: 1 });
    const keys = [await store.createKey(account.id, 'development'), await store.createKey(account.id, 'production')];
    for (const k of keys) await store.authenticate(k.key);
    await store.revokeKey(keys[0]!.keyId);
    // Read while open (WAL holds the recent pages) and again after close (checkpointed into the main file).
    const bytesOf = () => Buffer.concat([path, `${path}-wal`, `${path}-shm`].filter(existsSync).map((p) => readFileSync(p)));
    for (const stage of ['open', 'closed']) {
      if (stage === 'closed') await store.close();
      const bytes = bytesOf();
      for (const k of keys) {
        const secret = k.key.slice(k.prefix.length);
        const random = k.key.slice(k.key.indexOf('_', 3) + 1);
        assert.ok(bytes.includes(k.prefix), `${stage}: the display prefix is stored (so the search works)`);
        assert.ok(bytes.includes(createHash('sha256').update(k.key).digest()), `${stage}: the key's SHA-256 is stored`);
        assert.ok(!bytes.includes(k.key), `${stage}: plain key found in the database`);
        assert.ok(!bytes.includes(secret), `${stage}: the secret part of the key found in the database`);
        assert.ok(!bytes.includes(Buffer.from(random, 'base64url')), `${stage}: the raw random bytes found in the database`);
      }
    }
  });
});
