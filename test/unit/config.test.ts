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
