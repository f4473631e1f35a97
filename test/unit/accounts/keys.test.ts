/** API keys: creation, the authentication paths, revocation, and storage as hashes only. */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { ApiError } from '../../../src/contract/errors.ts';
import { AccountStore, AccountStoreError, bearerToken } from '../../../src/accounts/index.ts';

const dirs: string[] = [];
function tempStore(options: Parameters<typeof AccountStore.open>[1] = {}): { store: AccountStore; path: string } {
  const dir = mkdtempSync(join(tmpdir(), 'cc-keys-'));
  dirs.push(dir);
  const path = join(dir, 'accounts.sqlite');
  return { store: AccountStore.open(path, options), path };
}
after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function assertUnauthorized(fn: () => unknown, message: RegExp): void {
  assert.throws(fn, (err: unknown) => {
    assert.ok(err instanceof ApiError, `expected ApiError, got ${String(err)}`);
    assert.equal(err.code, 'unauthorized');
    assert.equal(err.status, 401);
    assert.match(err.message, message);
    return true;
  });
}

describe('key format', () => {
  it('has the kind tag, ≥128 random bits in base64url, and a short display prefix', () => {
    const { store } = tempStore();
    const account = store.createAccount({ name: 'a', balanceKm2: 1 });
    const dev = store.createKey(account.id, 'development');
    const live = store.createKey(account.id, 'production');
    assert.match(dev.key, /^cc_dev_[A-Za-z0-9_-]{32}$/);
    assert.match(live.key, /^cc_live_[A-Za-z0-9_-]{32}$/);
    // 32 base64url characters carry 192 bits.
    assert.equal(Buffer.from(dev.key.slice('cc_dev_'.length), 'base64url').length, 24);
    assert.ok(dev.key.startsWith(dev.prefix) && dev.prefix.length < dev.key.length - 16);
    assert.notEqual(dev.key, live.key);
    assert.equal(store.createKey(account.id).kind, 'development', 'development is the default kind');
    store.close();
  });

  it('refuses a key for an account that does not exist, or of an unknown kind', () => {
    const { store } = tempStore();
    assert.throws(() => store.createKey(42), AccountStoreError);
    const account = store.createAccount({ name: 'a', balanceKm2: 1 });
    assert.throws(() => store.createKey(account.id, 'staging' as never), AccountStoreError);
    store.close();
  });
});

describe('authenticate', () => {
  const { store } = tempStore();
  const account = store.createAccount({ name: 'acme', balanceKm2: 5 });
  const dev = store.createKey(account.id, 'development');
  const live = store.createKey(account.id, 'production');
  after(() => store.close());

  it('accepts a live key as header value or bare key, and says whose it is', () => {
    assert.deepEqual(store.authenticate(`Bearer ${dev.key}`), { keyId: dev.keyId, accountId: account.id, kind: 'development' });
    assert.deepEqual(store.authenticate(`bearer   ${live.key} `), { keyId: live.keyId, accountId: account.id, kind: 'production' });
    assert.deepEqual(store.authenticate(live.key), { keyId: live.keyId, accountId: account.id, kind: 'production' });
  });

  it('rejects a missing key', () => {
    for (const header of [undefined, null, '', '   ', 'Bearer', 'Bearer   ']) {
      assertUnauthorized(() => store.authenticate(header), /required/);
    }
  });

  it('rejects malformed keys', () => {
    for (const header of [
      'Bearer abc',
      `Basic ${dev.key}`,
      `Bearer ${dev.key}x`,
      `Bearer ${dev.key.slice(0, -1)}`,
      `Bearer cc_test_${dev.key.slice(7)}`,
      `Bearer ${dev.key} extra`,
    ]) {
      assertUnauthorized(() => store.authenticate(header), /malformed/);
    }
  });

  it('rejects a well-formed key it never issued, also one sharing a real prefix', () => {
    const forged = dev.prefix + 'A'.repeat(dev.key.length - dev.prefix.length);
    assert.notEqual(forged, dev.key);
    assertUnauthorized(() => store.authenticate(`Bearer ${forged}`), /not valid/);
    assertUnauthorized(() => store.authenticate(`Bearer cc_live_${'B'.repeat(32)}`), /not valid/);
    // The same random part under the other kind's tag is a different key.
    assertUnauthorized(() => store.authenticate(`Bearer cc_live_${dev.key.slice('cc_dev_'.length)}`), /not valid/);
  });

  it('rejects a revoked key and keeps the others working', () => {
    const { store: s } = tempStore();
    const a = s.createAccount({ name: 'r', balanceKm2: 1 });
    const k1 = s.createKey(a.id);
    const k2 = s.createKey(a.id);
    const k3 = s.createKey(a.id);
    s.authenticate(k1.key);
    const revoked = s.revokeKey(k1.keyId);
    assert.ok(revoked.revokedAt);
    assertUnauthorized(() => s.authenticate(`Bearer ${k1.key}`), /revoked/);
    // by display prefix, and by the full key (as when a key leaked)
    s.revokeKey(k2.prefix);
    s.revokeKey(k3.key);
    assertUnauthorized(() => s.authenticate(k2.key), /revoked/);
    assertUnauthorized(() => s.authenticate(k3.key), /revoked/);
    // Revoking again keeps the first time; unknown references throw.
    assert.equal(s.revokeKey(String(k1.keyId)).revokedAt, revoked.revokedAt);
    assert.throws(() => s.revokeKey(999), AccountStoreError);
    assert.throws(() => s.revokeKey('cc_dev_nope'), AccountStoreError);
    s.close();
  });

  it('records last use, writing at most once per resolution interval', () => {
    let clock = Date.parse('2025-01-01T00:00:00Z');
    const { store: s } = tempStore({ now: () => new Date(clock), lastUsedResolutionMs: 60_000 });
    const a = s.createAccount({ name: 'u', balanceKm2: 1 });
    const k = s.createKey(a.id);
    assert.equal(s.listKeys(a.id)[0]!.lastUsedAt, null);
    s.authenticate(k.key);
    assert.equal(s.listKeys(a.id)[0]!.lastUsedAt, '2025-01-01T00:00:00.000Z');
    clock += 30_000;
    s.authenticate(k.key);
    assert.equal(s.listKeys(a.id)[0]!.lastUsedAt, '2025-01-01T00:00:00.000Z', 'within the interval: not rewritten');
    clock += 31_000;
    s.authenticate(k.key);
    assert.equal(s.listKeys(a.id)[0]!.lastUsedAt, '2025-01-01T00:01:01.000Z');
    s.close();
  });
});

describe('bearerToken', () => {
  it('extracts the token from a header value', () => {
    assert.equal(bearerToken('Bearer abc'), 'abc');
    assert.equal(bearerToken('BEARER\tabc'), 'abc');
    assert.equal(bearerToken('abc'), 'abc');
    assert.equal(bearerToken('Bearer '), undefined);
    assert.equal(bearerToken(undefined), undefined);
  });
});

describe('storage', () => {
  it('keeps no plain key anywhere in the database files, only hashes', () => {
    const { store, path } = tempStore();
    const account = store.createAccount({ name: 'secretive', balanceKm2: 1 });
    const keys = [store.createKey(account.id, 'development'), store.createKey(account.id, 'production')];
    for (const k of keys) store.authenticate(k.key);
    store.revokeKey(keys[0]!.keyId);
    // Read while open (WAL holds the recent pages) and again after close (checkpointed into the main file).
    const bytesOf = () => Buffer.concat([path, `${path}-wal`, `${path}-shm`].filter(existsSync).map((p) => readFileSync(p)));
    for (const stage of ['open', 'closed']) {
      if (stage === 'closed') store.close();
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
