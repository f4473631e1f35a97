/** The admin CLI end to end, as an operator runs it: a child process against a temp CITY_DATA_DIR. */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, it } from 'node:test';
import { ApiError } from '../../src/contract/errors.ts';
import { openTestAccounts, testDatabaseUrl } from '../support/accounts/test-database.ts';
import { REPO_ROOT } from '../../src/repo-root.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'cc-cli-'));
after(() => rmSync(dataDir, { recursive: true, force: true }));
/** On PostgreSQL runs, the CLI and the test share one database through CITY_DATABASE_URL. */
let databaseUrl: string | null = null;
before(async () => {
  databaseUrl = await testDatabaseUrl();
});

function admin(...args: string[]): { code: number | null; stdout: string; stderr: string } {
  const run = spawnSync(process.execPath, ['--import', 'tsx', join(REPO_ROOT, 'scripts/admin.ts'), ...args], {
    cwd: REPO_ROOT,
    env: { ...process.env, CITY_DATA_DIR: dataDir, CITY_DATABASE_URL: databaseUrl ?? '' },
    encoding: 'utf8',
  });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

function ok(...args: string[]): string {
  const run = admin(...args);
  assert.equal(run.code, 0, `admin ${args.join(' ')} failed: ${run.stderr}`);
  return run.stdout;
}

it('round trip: create account, create key, top up, suspend, activate, usage, revoke, list', async () => {
  const created = ok('create-account', '--name', 'Acme Surveying', '--balance', '2.5');
  const accountId = /Created account (\d+)/.exec(created)?.[1];
  assert.ok(accountId, created);

  const keyOut = ok('create-key', '--account', accountId, '--kind', 'production');
  const key = /^cc_live_[A-Za-z0-9_-]{32}$/m.exec(keyOut)?.[0];
  assert.ok(key, `no key printed: ${keyOut}`);
  assert.match(keyOut, /only time/);

  assert.match(ok('top-up', '--account', accountId, '--km2', '1.5'), /balance 4 km²/);

  // Use the key in-process, as the server would, while the CLI works on the same store.
  const store = await openTestAccounts(databaseUrl ?? join(dataDir, 'accounts.sqlite'));
  const auth = await store.authenticate(`Bearer ${key}`);
  await (await store.reserve(auth, 1.25)).commit();
  await (await store.reserve(auth, 0.5)).release('failed');
  const open = await store.reserve(auth, 0.25);

  assert.match(ok('suspend', '--account', accountId), /inactive/);
  await assert.rejects(
    async () => await store.reserve(auth, 0.1),
    (e: unknown) => e instanceof ApiError && e.code === 'no_active_subscription',
  );
  assert.match(ok('activate', '--account', accountId), /active/);

  const usage = JSON.parse(ok('usage', '--account', accountId, '--json')) as {
    account: { balanceKm2: number; reservedKm2: number };
    usage: { status: string; costKm2: number }[];
  };
  assert.deepEqual([usage.account.balanceKm2, usage.account.reservedKm2], [2.75, 0.25], 'the CLI left the open reservation alone');
  assert.deepEqual(
    usage.usage.map((r) => [r.status, r.costKm2]),
    [
      ['reserved', 0],
      ['failed', 0],
      ['completed', 1.25],
    ],
  );
  assert.match(ok('usage', '--account', accountId, '--limit', '1'), /reserved/);
  await open.commit();

  const prefix = key.slice(0, 16);
  assert.match(ok('revoke-key', prefix), /Revoked key/);
  await assert.rejects(
    async () => await store.authenticate(`Bearer ${key}`),
    (e: unknown) => e instanceof ApiError && e.code === 'unauthorized',
  );
  await store.close();

  const list = ok('list');
  assert.match(list, /Acme Surveying", active, balance 2\.5 km²/);
  assert.match(list, new RegExp(`${prefix}.*production.*revoked`));
  assert.ok(!list.includes(key), 'list never shows a key');
});

it('refuses bad input with a message and a non-zero exit', async () => {
  const cases: [string[], number, RegExp][] = [
    [[], 2, /Usage:/],
    [['frobnicate'], 2, /Unknown command "frobnicate"/],
    [['create-account', '--name', 'x'], 2, /--balance is required/],
    [['create-account', '--name', 'x', '--balance', 'lots'], 2, /--balance must be a number/],
    [['create-account', '--name', 'x', '--balance=-3'], 2, /--balance must be a number/],
    [['create-key', '--account', '1', '--kind', 'staging'], 2, /--kind must be development or production/],
    [['top-up', '--account', 'abc', '--km2', '1'], 2, /--account must be a positive whole number/],
    [['top-up', '--account', '999', '--km2', '1'], 1, /No account with id 999/],
    [['suspend', '--acount', '1'], 2, /Unknown option '--acount'/],
    [['revoke-key'], 2, /takes exactly 1 argument/],
    [['revoke-key', 'cc_dev_nothing'], 1, /No API key matches/],
    [['usage', '--account', '1', '--limit', '0'], 2, /--limit must be a positive whole number/],
  ];
  for (const [args, code, message] of cases) {
    const run = admin(...args);
    assert.equal(run.code, code, `admin ${args.join(' ')}: exit ${run.code}, stderr ${run.stderr}`);
    assert.match(run.stderr, message, `admin ${args.join(' ')}`);
  }
  assert.match(ok('help'), /create-account --name NAME --balance KM2/);
});

it('migrate brings the store up to date and says which store it is', () => {
  const out = JSON.parse(ok('migrate', '--json')) as { store: string; migrated: boolean };
  assert.deepEqual(out, { store: databaseUrl ? 'postgres' : 'sqlite', migrated: true });
});

it('a store it cannot open is a one-line error and exit 1', () => {
  const run = spawnSync(process.execPath, ['--import', 'tsx', join(REPO_ROOT, 'scripts/admin.ts'), 'list'], {
    cwd: REPO_ROOT,
    env: { ...process.env, CITY_DATA_DIR: dataDir, CITY_DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' },
    encoding: 'utf8',
  });
  assert.equal(run.status, 1);
  assert.match(run.stderr, /^error: cannot open the accounts store: .*\n$/);
});

it('grant-premium and revoke-premium by dataset or country, shown by list and usage', () => {
  const accountId = /Created account (\d+)/.exec(ok('create-account', '--name', 'Planner', '--balance', '1'))![1];
  assert.match(ok('grant-premium', '--account', accountId, '--dataset', 'zurich-sample'), /premium buildings: dataset zurich-sample$/m);
  const granted = JSON.parse(ok('grant-premium', '--account', accountId, '--country', 'de', '--json'));
  assert.deepEqual(
    granted.premium.map((e: { kind: string; value: string }) => [e.kind, e.value]),
    [
      ['dataset', 'zurich-sample'],
      ['country', 'DE'],
    ],
  );
  assert.match(ok('list'), new RegExp(`^${accountId}  "Planner".*\\n    premium buildings: dataset zurich-sample, country DE$`, 'm'));
  assert.match(ok('usage', '--account', accountId), /premium buildings: dataset zurich-sample, country DE/);
  assert.match(ok('revoke-premium', '--account', accountId, '--dataset', 'zurich-sample'), /premium buildings: country DE$/m);
  const usage = JSON.parse(ok('usage', '--account', accountId, '--json'));
  assert.deepEqual(
    usage.premium.map((e: { value: string }) => e.value),
    ['DE'],
  );

  const cases: [string[], number, RegExp][] = [
    [['grant-premium', '--account', accountId], 2, /exactly one of --dataset ID or --country CODE/],
    [['grant-premium', '--account', accountId, '--dataset', 'x', '--country', 'CH'], 2, /exactly one of/],
    [['grant-premium', '--account', accountId, '--country', 'Germany'], 1, /Not a premium country "Germany"/],
    [['grant-premium', '--account', '999', '--country', 'CH'], 1, /No account with id 999/],
    [['revoke-premium', '--account', accountId, '--country', 'DE-BE'], 1, /has no premium entitlement for country DE-BE/],
  ];
  for (const [args, code, message] of cases) {
    const run = admin(...args);
    assert.equal(run.code, code, `admin ${args.join(' ')}: exit ${run.code}, stderr ${run.stderr}`);
    assert.match(run.stderr, message, `admin ${args.join(' ')}`);
  }
});
