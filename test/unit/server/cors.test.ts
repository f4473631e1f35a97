import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CorsPolicy, corsPolicyFromEnv } from '../../../src/server/cors.ts';

test('CITY_CORS_ORIGINS: origins (scheme://host[:port]) or *, off when unset or empty', () => {
  assert.throws(() => new CorsPolicy(['maps.example.com']), /origin/);
  assert.throws(() => new CorsPolicy(['https://maps.example.com/app']), /origin/);
  assert.equal(corsPolicyFromEnv({}).enabled, false);
  assert.equal(corsPolicyFromEnv({ CITY_CORS_ORIGINS: ' , ' }).enabled, false);
  assert.equal(corsPolicyFromEnv({ CITY_CORS_ORIGINS: 'https://a.example, http://localhost:5173' }).enabled, true);
  assert.equal(new CorsPolicy(['*']).enabled, true);
});
