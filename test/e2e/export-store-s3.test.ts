import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { text } from 'node:stream/consumers';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { S3ExportStore } from '../../src/export/store/s3.ts';
import { stagePathIn } from '../../src/export/store/staged.ts';
import { writeStagedFile } from '../../src/export/stage-file.ts';
import { exportStoreSuite } from '../support/stores/export-store-suite.ts';
import { startTestS3, type TestS3 } from '../support/stores/s3-server.ts';

let s3: TestS3;
let buckets = 0;
before(async () => {
  s3 = await startTestS3();
});
after(async () => {
  await s3.close();
});

// Each case gets its own key prefix in the one bucket, so counts and the cap see only its files.
exportStoreSuite(
  'S3 store (s3rver)',
  async ({ ttlMs, maxBytes }) => {
    let shift = 0;
    const store = await new S3ExportStore({ ...s3.config, prefix: `case${++buckets}/`, ttlMs, maxBytes, now: () => Date.now() + shift }).open();
    return {
      store,
      advance: (ms) => {
        shift += ms;
      },
      close: () => store.close(),
    };
  },
  1100,
);

test('S3 store: one object per export under the prefix, metadata carries name, ETag and expiry', async () => {
  const store = await new S3ExportStore({ ...s3.config, prefix: 'meta/', ttlMs: 60_000, maxBytes: 1000 }).open();
  const put = await store.put('Zürich.ifc', new TextEncoder().encode('ISO-10303-21;'), 'application/x-step');
  const client = new S3Client({ ...s3.config });
  const listed = await client.send(new ListObjectsV2Command({ Bucket: s3.config.bucket, Prefix: 'meta/' }));
  assert.deepEqual(
    listed.Contents?.map((o) => o.Key),
    [`meta/${put.token}`],
  );
  assert.deepEqual(await store.head(put.token, 'Zürich.ifc'), put);
  client.destroy();
  await store.close();
});

test('S3 store: a file put in pieces is uploaded whole, with the size and ETag of the whole', async () => {
  const store = await new S3ExportStore({ ...s3.config, prefix: 'pieces/', ttlMs: 60_000, maxBytes: 1000 }).open();
  const enc = (s: string) => new TextEncoder().encode(s);
  const whole = await store.put('w.ifc', enc('ISO-10303-21;\nEND'), 'application/x-step');
  const pieces = await store.put('p.ifc', [enc('ISO-10303-21;'), enc(''), enc('\nEND')], 'application/x-step');
  assert.deepEqual([pieces.size, pieces.etag], [whole.size, whole.etag]);
  assert.equal(await text((await store.read(pieces.token, 'p.ifc'))! as NodeJS.ReadableStream), 'ISO-10303-21;\nEND');
  await store.close();
});

test('S3 store: a staged file is uploaded from disk with its size and ETag, then removed', async () => {
  const store = await new S3ExportStore({ ...s3.config, prefix: 'staged/', ttlMs: 60_000, maxBytes: 1000 }).open();
  const enc = (s: string) => new TextEncoder().encode(s);
  const whole = await store.put('w.ifc', enc('ISO-10303-21;\nEND'), 'application/x-step');
  const staged = writeStagedFile(stagePathIn(mkdtempSync(join(tmpdir(), 'cc-stage-'))), [enc('ISO-10303-21;'), enc('\nEND')]);
  const put = await store.put('s.ifc', staged, 'application/x-step');
  assert.deepEqual([put.size, put.etag], [whole.size, whole.etag]);
  assert.equal(await text((await store.read(put.token, 's.ifc'))! as NodeJS.ReadableStream), 'ISO-10303-21;\nEND');
  assert.ok(!existsSync(staged.stagedPath));
  await store.close();
});

test('S3 store: opening fails clearly when the bucket does not exist', async () => {
  await assert.rejects(new S3ExportStore({ ...s3.config, bucket: 'no-such-bucket', ttlMs: 1, maxBytes: 1 }).open(), /no-such-bucket/);
});
