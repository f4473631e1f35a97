import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { SqliteAccountStore } from '../../../src/accounts/index.ts';
import { embeddedChecks, failingChecks } from '../../../src/server/dependency-checks.ts';
import { LocalExportStore } from '../../../src/export/store/local.ts';
import { REPO_ROOT } from '../../../src/config.ts';
import { importOsm } from '../../../src/sources/osm/import.ts';

test('failingChecks names the checks that reject or do not answer in time, with why, and none when all answer', async () => {
  const never = new Promise<void>(() => {});
  const checks = [
    { name: 'fine', ping: async () => {} },
    { name: 'down', ping: async () => Promise.reject(new Error('connection refused')) },
    { name: 'hung', ping: () => never },
  ];
  assert.deepEqual(await failingChecks(checks, 50), [
    { name: 'down', message: 'connection refused' },
    { name: 'hung', message: 'no answer within 50 ms' },
  ]);
  assert.deepEqual(await failingChecks([checks[0]], 50), []);
});

test('the embedded checks: accounts, OSM store and export store answer; a store that cannot be read fails by name', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cc-checks-'));
  const accounts = await SqliteAccountStore.open(join(dir, 'accounts.sqlite'));
  const osmStorePath = join(dir, 'osm.sqlite');
  await importOsm(join(REPO_ROOT, 'data/monaco/monaco.osm.pbf'), osmStorePath, {});
  const exports = await new LocalExportStore({ dir: join(dir, 'exports'), ttlMs: 60_000, maxBytes: 1 << 20 }).open();
  try {
    const checks = embeddedChecks({ accounts, osmStorePath, exports });
    assert.deepEqual(
      checks.map((c) => c.name),
      ['accounts', 'osm-store', 'export-store'],
    );
    assert.deepEqual(await failingChecks(checks), []);
    const missing = embeddedChecks({ accounts, osmStorePath: join(dir, 'no-such.sqlite'), exports });
    assert.deepEqual(
      (await failingChecks(missing)).map((f) => f.name),
      ['osm-store'],
    );
    await accounts.close();
    assert.deepEqual(
      (await failingChecks(checks)).map((f) => f.name),
      ['accounts'],
      'a closed accounts database',
    );
  } finally {
    await exports.close();
  }
});
