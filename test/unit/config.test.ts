import { test } from 'node:test';
import assert from 'node:assert/strict';
import { availableParallelism } from 'node:os';
import { loadConfig, WORKER_OLD_GENERATION_MB, WORKER_YOUNG_GENERATION_MB } from '../../src/config.ts';

test('tile worker heap: small young generation, old generation ceiling, own-thread GC when every core has a worker', () => {
  const c = loadConfig({ CITY_DATA_DIR: '/tmp/unused' });
  assert.equal(c.workerYoungGenerationMb, WORKER_YOUNG_GENERATION_MB);
  assert.equal(c.workerOldGenerationMb, WORKER_OLD_GENERATION_MB);
  assert.equal(c.backgroundGc, false, 'one worker per core by default: no spare core for V8 helper threads');
  const cores = availableParallelism();
  if (cores > 1) assert.equal(loadConfig({ CITY_WORKERS: String(cores - 1) }).backgroundGc, true);
  assert.equal(loadConfig({ CITY_BACKGROUND_GC: '1' }).backgroundGc, true);
  assert.equal(loadConfig({ CITY_WORKERS: '1', CITY_BACKGROUND_GC: '0' }).backgroundGc, false);
  const tuned = loadConfig({ CITY_WORKER_YOUNG_MB: '192', CITY_WORKER_OLD_MB: '64' });
  assert.equal(tuned.workerYoungGenerationMb, 192);
  assert.equal(tuned.workerOldGenerationMb, 128, 'a ceiling below 128 MB is raised to it');
});

test('admission classes, per-address connections, proxies and CORS from the environment; malformed values stop the start', () => {
  const c = loadConfig({});
  assert.equal(c.largeRequestKm2, 1);
  assert.equal(c.smallRequestSlots, null);
  assert.equal(c.http.maxConnectionsPerAddress, 64);
  assert.equal(c.trustedProxies.entries.length, 0);
  assert.equal(c.cors.enabled, false);
  const set = loadConfig({
    CITY_LARGE_REQUEST_KM2: '0.5',
    CITY_SMALL_REQUEST_SLOTS: '2',
    CITY_MAX_CONNECTIONS_PER_ADDRESS: '8',
    CITY_TRUSTED_PROXIES: '10.0.0.1',
    CITY_CORS_ORIGINS: 'https://maps.example.com',
  });
  assert.deepEqual([set.largeRequestKm2, set.smallRequestSlots, set.http.maxConnectionsPerAddress], [0.5, 2, 8]);
  assert.equal(set.trustedProxies.trusts('10.0.0.1'), true);
  assert.equal(set.cors.enabled, true);
  assert.throws(() => loadConfig({ CITY_LARGE_REQUEST_KM2: 'big' }), /CITY_LARGE_REQUEST_KM2/);
  assert.throws(() => loadConfig({ CITY_MAX_CONNECTIONS_PER_ADDRESS: '0' }), /CITY_MAX_CONNECTIONS_PER_ADDRESS/);
  assert.throws(() => loadConfig({ CITY_TRUSTED_PROXIES: 'proxy' }), /CITY_TRUSTED_PROXIES/);
  assert.throws(() => loadConfig({ CITY_CORS_ORIGINS: 'maps.example.com' }), /CITY_CORS_ORIGINS/);
});

test('the web page map: no base-map style unless CITY_MAP_STYLE_URL names an http(s) one', () => {
  assert.equal(loadConfig({}).mapStyleUrl, null);
  assert.equal(loadConfig({ CITY_MAP_STYLE_URL: 'https://tiles.example.com/styles/basic.json' }).mapStyleUrl, 'https://tiles.example.com/styles/basic.json');
  assert.throws(() => loadConfig({ CITY_MAP_STYLE_URL: 'file:///etc/passwd' }), /CITY_MAP_STYLE_URL must be an http\(s\) URL/);
  assert.match(loadConfig({}).webAssetsDir, /dist\/web$/);
});

test('the OSM store: osm.sqlite in the data directory by default, a file path resolved, a postgres:// URL kept as it is', () => {
  assert.equal(loadConfig({ CITY_DATA_DIR: '/srv/cc' }).osmStore, '/srv/cc/osm.sqlite');
  assert.equal(loadConfig({ CITY_DATA_DIR: '/srv/cc', CITY_OSM_STORE: '/data/city.sqlite' }).osmStore, '/data/city.sqlite');
  const url = 'postgres://reader@db.internal:5432/osm?sslmode=require';
  assert.equal(loadConfig({ CITY_OSM_STORE: url }).osmStore, url);
  assert.equal(loadConfig({ CITY_OSM_STORE: 'postgresql://db/osm' }).osmStore, 'postgresql://db/osm');
});
