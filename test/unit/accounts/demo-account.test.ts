/** First start: a demo account and key appear once, and the key file is private. */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, it } from 'node:test';
import { SqliteAccountStore, DEMO_KEY_FILE, ensureDemoAccount } from '../../../src/accounts/index.ts';

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'cc-demo-'));
  dirs.push(dir);
  return dir;
}
after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

it('creates an active demo account with a working development key on an empty store, once', async () => {
  const dataDir = tempDir();
  const store = await SqliteAccountStore.open(join(dataDir, 'accounts.sqlite'));
  const demo = (await ensureDemoAccount(store, dataDir))!;
  assert.ok(demo);
  assert.equal(demo.keyFile, join(dataDir, DEMO_KEY_FILE));
  assert.equal(readFileSync(demo.keyFile, 'utf8'), `${demo.key}\n`);
  assert.equal(statSync(demo.keyFile).mode & 0o777, 0o600);

  const auth = await store.authenticate(`Bearer ${demo.key}`);
  assert.deepEqual(auth, { keyId: demo.keyId, accountId: demo.accountId, kind: 'development' });
  const account = (await store.getAccount(demo.accountId))!;
  assert.deepEqual([account.name, account.status, account.balanceKm2], ['demo', 'active', 1000]);
  // entitled to the bundled premium samples, so a newcomer sees them
  assert.deepEqual(
    (await store.premiumEntitlements(demo.accountId)).map((e) => `${e.kind} ${e.value}`),
    ['dataset berlin-sample', 'dataset zurich-sample'],
  );
  await (await store.reserve(auth, 1)).commit();

  // Second start: nothing new, the file untouched.
  writeFileSync(demo.keyFile, 'marker', { mode: 0o600 });
  assert.equal(await ensureDemoAccount(store, dataDir), null);
  assert.equal(readFileSync(demo.keyFile, 'utf8'), 'marker');
  assert.equal(await store.accountCount(), 1);
  await store.close();
});

it('does nothing when accounts already exist', async () => {
  const dataDir = tempDir();
  const store = await SqliteAccountStore.open(join(dataDir, 'accounts.sqlite'));
  await store.createAccount({ name: 'real customer', balanceKm2: 5 });
  assert.equal(await ensureDemoAccount(store, dataDir), null);
  assert.equal(existsSync(join(dataDir, DEMO_KEY_FILE)), false);
  assert.equal(await store.accountCount(), 1);
  await store.close();
});

it('replaces a key file left from an older database, making it private', async () => {
  const dataDir = tempDir();
  writeFileSync(join(dataDir, DEMO_KEY_FILE), 'cc_dev_stale\n', { mode: 0o644 });
  const store = await SqliteAccountStore.open(join(dataDir, 'accounts.sqlite'));
  const demo = (await ensureDemoAccount(store, dataDir, { balanceKm2: 3, name: 'trial' }))!;
  assert.equal(readFileSync(demo.keyFile, 'utf8'), `${demo.key}\n`);
  assert.equal(statSync(demo.keyFile).mode & 0o777, 0o600);
  assert.deepEqual([(await store.getAccount(demo.accountId))!.name, (await store.getAccount(demo.accountId))!.balanceKm2], ['trial', 3]);
  await store.close();
});
