/** CITY_PREMIUM_SOURCES: the bundled samples by default, checked entries otherwise, and imports only what the store lacks. */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../../../src/config.ts';
import { BUNDLED_PREMIUM_SOURCES, importPremiumSources, premiumSourcesFromEnv } from '../../../../src/sources/premium/config.ts';

const dir = mkdtempSync(join(tmpdir(), 'premium-config-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test('unset: the two bundled samples, whose files are in the repository, with their credit lines', () => {
  const sources = loadConfig({ CITY_DATA_DIR: dir }).premiumSources;
  assert.deepEqual(
    sources.map((s) => [s.id, s.country]),
    [
      ['zurich-sample', 'CH'],
      ['berlin-sample', 'DE-BE'],
    ],
  );
  for (const s of sources) {
    assert.ok(existsSync(s.path), s.path);
    assert.ok(s.attribution && s.license, `${s.id} has a credit line and licence`);
  }
  assert.equal(BUNDLED_PREMIUM_SOURCES.length, 2);
});

test('a configured list is checked: JSON, ids, country codes, duplicates', () => {
  const one = premiumSourcesFromEnv('[{"id":"nrw","path":"/data/nrw","country":"de-nw","crs":"EPSG:25832","attribution":"© GeoBasis-DE / NRW"}]');
  assert.deepEqual([one[0].id, one[0].country, one[0].path, one[0].crs], ['nrw', 'DE-NW', '/data/nrw', 'EPSG:25832']);
  assert.deepEqual(premiumSourcesFromEnv('[]'), []);
  assert.throws(() => premiumSourcesFromEnv('{not json'), /CITY_PREMIUM_SOURCES is not JSON/);
  assert.throws(() => premiumSourcesFromEnv('[{"id":"x","path":"p","country":"Germany"}]'), /0\.country: country is an ISO 3166-1/);
  assert.throws(() => premiumSourcesFromEnv('[{"id":"a b","path":"p","country":"DE"}]'), /0\.id/);
  assert.throws(() => premiumSourcesFromEnv('[{"id":"x","country":"DE"}]'), /0\.path/);
  assert.throws(() => premiumSourcesFromEnv('[{"id":"x","path":"p","country":"DE"},{"id":"x","path":"q","country":"DE"}]'), /listed twice/);
});

test('importPremiumSources imports what the store lacks and leaves the rest', async () => {
  const sources = premiumSourcesFromEnv(undefined);
  const lines: string[] = [];
  const first = await importPremiumSources(sources, dir, (l) => lines.push(l));
  assert.deepEqual(
    first.imported.map((r) => [r.dataset, r.buildings]),
    [
      ['zurich-sample', 49],
      ['berlin-sample', 61],
    ],
  );
  assert.equal(lines.length, 4);
  const second = await importPremiumSources(sources, dir);
  assert.deepEqual([second.imported.length, second.present], [0, ['zurich-sample', 'berlin-sample']]);
});
