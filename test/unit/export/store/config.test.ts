import assert from 'node:assert/strict';
import { test } from 'node:test';
import { exportStoreConfigFromEnv } from '../../../../src/export/store/config.ts';

test('export store config: local under the data dir, 24 h, 5 GB, 10 min sweep by default', () => {
  const c = exportStoreConfigFromEnv({}, '/data');
  assert.deepEqual(c, {
    kind: 'local',
    ttlMs: 86_400_000,
    maxBytes: 5120 * 1024 * 1024,
    accountMaxBytes: 5120 * 1024 * 1024,
    minFreeBytes: 256 * 1024 * 1024,
    sweepIntervalMs: 600_000,
    publicBaseUrl: null,
    dir: '/data/exports',
    s3: null,
  });
  assert.equal(exportStoreConfigFromEnv({ CITY_EXPORT_TTL_HOURS: '0.5', CITY_PUBLIC_BASE_URL: 'https://x.example/' }, '/d').ttlMs, 1_800_000);
  assert.equal(exportStoreConfigFromEnv({ CITY_PUBLIC_BASE_URL: 'https://x.example/' }, '/d').publicBaseUrl, 'https://x.example');
  const quota = exportStoreConfigFromEnv({ CITY_EXPORT_MAX_MB: '100', CITY_EXPORT_ACCOUNT_MAX_MB: '10', CITY_EXPORT_MIN_FREE_MB: '0.5' }, '/d');
  assert.deepEqual([quota.maxBytes, quota.accountMaxBytes, quota.minFreeBytes], [100 << 20, 10 << 20, 512 << 10]);
  assert.equal(
    exportStoreConfigFromEnv({ CITY_EXPORT_MAX_MB: '100', CITY_EXPORT_ACCOUNT_MAX_MB: '500' }, '/d').accountMaxBytes,
    100 << 20,
    'never more than the whole store',
  );
});

test('export store config: S3 needs a bucket; path style follows the endpoint unless set; keys only as a pair', () => {
  assert.throws(() => exportStoreConfigFromEnv({ CITY_EXPORT_STORE: 's3' }, '/d'), /CITY_EXPORT_S3_BUCKET/);
  assert.throws(() => exportStoreConfigFromEnv({ CITY_EXPORT_STORE: 'gcs' }, '/d'), /local or s3/);
  assert.throws(() => exportStoreConfigFromEnv({ CITY_EXPORT_TTL_HOURS: '0' }, '/d'), /positive/);
  assert.throws(() => exportStoreConfigFromEnv({ CITY_PUBLIC_BASE_URL: 'x.example' }, '/d'), /http/);
  const aws = exportStoreConfigFromEnv({ CITY_EXPORT_STORE: 's3', CITY_EXPORT_S3_BUCKET: 'b' }, '/d').s3!;
  assert.equal(aws.forcePathStyle, false);
  assert.equal(aws.credentials, undefined);
  assert.equal(aws.region, 'us-east-1');
  const minio = exportStoreConfigFromEnv(
    {
      CITY_EXPORT_STORE: 's3',
      CITY_EXPORT_S3_BUCKET: 'b',
      CITY_EXPORT_S3_ENDPOINT: 'http://127.0.0.1:9000',
      CITY_EXPORT_S3_REGION: 'eu-west-1',
      CITY_EXPORT_S3_ACCESS_KEY: 'k',
      CITY_EXPORT_S3_SECRET_KEY: 's',
    },
    '/d',
  ).s3!;
  assert.deepEqual(minio, {
    bucket: 'b',
    region: 'eu-west-1',
    endpoint: 'http://127.0.0.1:9000',
    forcePathStyle: true,
    credentials: { accessKeyId: 'k', secretAccessKey: 's' },
    prefix: 'exports/',
  });
});
