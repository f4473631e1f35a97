/**
 * Several API nodes behind a load balancer (docs/operations.md "Several nodes"): two service
 * processes on one accounts database and one S3 bucket (s3rver). An export written by node A is
 * downloaded through node B — after A has stopped, so nothing of it can come from A — byte for
 * byte, with ranges; its link names the public origin, not the node that wrote it.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { SqliteAccountStore } from '../../src/accounts/index.ts';
import { REPO_ROOT, storePaths } from '../../src/config.ts';
import { spawnServer, waitForStatus, type SpawnedServer } from '../support/service/compiled-server.ts';
import { startTestS3, type TestS3 } from '../support/stores/s3-server.ts';
import { square } from '../support/polygons.ts';

const PUBLIC = 'https://city.example.com';
let s3: TestS3;
before(async () => {
  s3 = await startTestS3('exports-multi-node');
});
after(async () => {
  await s3?.close();
});

async function download(base: string, path: string, headers: Record<string, string> = {}) {
  const res = await request(`${base}${path}`, { headers });
  return { status: res.statusCode, etag: String(res.headers.etag), range: res.headers['content-range'], bytes: Buffer.from(await res.body.arrayBuffer()) };
}

test('an export written by node A is downloaded through node B, whole and by range, after A has stopped', { timeout: 240_000 }, async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'cc-nodes-'));
  const env = {
    CITY_WORKERS: '1',
    CITY_WARMUP_REQUESTS_MS: '0',
    CITY_EXPORT_STORE: 's3',
    CITY_EXPORT_S3_BUCKET: s3.config.bucket,
    CITY_EXPORT_S3_ENDPOINT: s3.config.endpoint!,
    CITY_EXPORT_S3_ACCESS_KEY: 'S3RVER',
    CITY_EXPORT_S3_SECRET_KEY: 'S3RVER',
    CITY_PUBLIC_BASE_URL: PUBLIC,
  };
  const extract = join(REPO_ROOT, 'data/monaco/monaco.osm.pbf');
  const nodes: SpawnedServer[] = [];
  try {
    // one after the other: the first builds the shared OSM store, the second opens it
    for (const _ of [0, 1]) {
      const node = await spawnServer(dataDir, extract, env);
      nodes.push(node);
      assert.ok(await waitForStatus(node, '/readyz', 200), 'ready, the bucket reachable');
    }
    const [a, b] = nodes;
    const accounts = await SqliteAccountStore.open(storePaths(dataDir).accounts, { releaseStale: false, staleSweepMs: 0 });
    const { id } = await accounts.createAccount({ name: 'two nodes', balanceKm2: 5 });
    const { key } = await accounts.createKey(id, 'production');
    await accounts.close();

    const res = await request(`${a.base}/v1/context`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ polygon: square(43.7336, 7.4183, 160), settings: { geometry: ['buildings'] }, export: { format: 'glb' } }),
    });
    const answer = (await res.body.json()) as { downloadUrl: string };
    assert.equal(res.statusCode, 200, JSON.stringify(answer));
    const link = new URL(answer.downloadUrl);
    assert.equal(link.origin, PUBLIC, 'the link names the public origin, not node A');
    const fromA = await download(a.base, link.pathname);
    assert.equal(fromA.status, 200);
    assert.equal(fromA.bytes.subarray(0, 4).toString('latin1'), 'glTF');

    a.child.kill('SIGTERM');
    await a.exited;
    assert.equal(a.child.exitCode, 0);

    const fromB = await download(b.base, link.pathname);
    assert.equal(fromB.status, 200);
    assert.equal(fromB.etag, fromA.etag);
    assert.ok(fromB.bytes.equals(fromA.bytes), 'the same bytes through node B');
    const part = await download(b.base, link.pathname, { range: 'bytes=4-11' });
    assert.equal(part.status, 206);
    assert.equal(part.range, `bytes 4-11/${fromA.bytes.length}`);
    assert.ok(part.bytes.equals(fromA.bytes.subarray(4, 12)));

    const again = await SqliteAccountStore.open(storePaths(dataDir).accounts, { releaseStale: false, staleSweepMs: 0 });
    const rows = await again.usage(id);
    await again.close();
    assert.deepEqual(
      rows.map((r) => r.status),
      ['completed'],
      'charged once, by the node that served it',
    );
  } finally {
    for (const node of nodes) node.child.kill('SIGKILL');
  }
});
