import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { request } from 'undici';
import { exportStoreConfigFromEnv } from '../../src/export/store/config.ts';
import type { StoredExport } from '../../src/export/store/types.ts';
import type { RunningService } from '../../src/service.ts';
import { startTestService } from '../support/service/http.ts';
import { startTestS3, type TestS3 } from '../support/stores/s3-server.ts';

const BYTES = new TextEncoder().encode('0123456789abcdefghij'); // 20 bytes
const NAME = 'Monaco – Condamine.glb';

let service: RunningService;
let file: StoredExport;
let url: string;
before(async () => {
  service = await startTestService();
  file = await service.exports.put(NAME, BYTES, 'model/gltf-binary');
  url = `${service.url}/v1/exports/${file.token}/${encodeURIComponent(NAME)}`;
});
after(async () => {
  await service.close();
});

async function get(target: string, headers: Record<string, string> = {}, method: 'GET' | 'HEAD' | 'POST' = 'GET') {
  const res = await request(target, { method, headers });
  const body = Buffer.from(await res.body.arrayBuffer());
  return { status: res.statusCode, headers: res.headers, body, json: () => JSON.parse(body.toString('utf8')) };
}

test('GET 200: the bytes with type, length, a readable attachment name, ETag and byte ranges offered', async () => {
  const r = await get(url);
  assert.equal(r.status, 200);
  assert.deepEqual(new Uint8Array(r.body), BYTES);
  assert.equal(r.headers['content-type'], 'model/gltf-binary');
  assert.equal(r.headers['content-length'], '20');
  assert.equal(r.headers['content-disposition'], `attachment; filename="Monaco _ Condamine.glb"; filename*=UTF-8''Monaco%20%E2%80%93%20Condamine.glb`);
  assert.equal(r.headers.etag, file.etag);
  assert.equal(r.headers['accept-ranges'], 'bytes');
  assert.match(String(r.headers['cache-control']), /^private, max-age=(8639\d|86400)$/);
});

test('HEAD: the same headers and no body', async () => {
  const r = await get(url, {}, 'HEAD');
  assert.equal(r.status, 200);
  assert.equal(r.body.length, 0);
  assert.equal(r.headers['content-length'], '20');
  assert.equal(r.headers.etag, file.etag);
  const part = await get(url, { range: 'bytes=5-' }, 'HEAD');
  assert.equal(part.status, 206);
  assert.equal(part.headers['content-range'], 'bytes 5-19/20');
});

test('If-None-Match with the ETag (exact, weak or in a list): 304 without a body', async () => {
  for (const inm of [file.etag, `W/${file.etag}`, `"other", ${file.etag}`]) {
    const r = await get(url, { 'if-none-match': inm });
    assert.equal(r.status, 304, inm);
    assert.equal(r.body.length, 0);
    assert.equal(r.headers.etag, file.etag);
  }
  assert.equal((await get(url, { 'if-none-match': '"other"' })).status, 200);
});

test('Range: one range → 206 with Content-Range; If-Range with another ETag or several ranges → the whole file', async () => {
  const cases: [string, string, string][] = [
    ['bytes=2-5', '2345', 'bytes 2-5/20'],
    ['bytes=-3', 'hij', 'bytes 17-19/20'],
    ['bytes=15-', 'fghij', 'bytes 15-19/20'],
    ['bytes=0-0', '0', 'bytes 0-0/20'],
  ];
  for (const [range, body, contentRange] of cases) {
    const r = await get(url, { range });
    assert.equal(r.status, 206, range);
    assert.equal(r.body.toString(), body);
    assert.equal(r.headers['content-range'], contentRange);
    assert.equal(r.headers['content-length'], String(body.length));
  }
  assert.equal((await get(url, { range: 'bytes=2-5', 'if-range': file.etag })).status, 206);
  const stale = await get(url, { range: 'bytes=2-5', 'if-range': '"old"' });
  assert.equal(stale.status, 200);
  assert.equal(stale.body.length, 20);
  assert.equal((await get(url, { range: 'bytes=0-1,4-5' })).status, 200);
});

test('Range past the end: 416 with Content-Range bytes */size and the error body', async () => {
  const r = await get(url, { range: 'bytes=20-' });
  assert.equal(r.status, 416);
  assert.equal(r.headers['content-range'], 'bytes */20');
  assert.equal(r.json().code, 'range_not_satisfiable');
  assert.equal(typeof r.json().error, 'string');
});

test('404 with the error body: unknown token, wrong name, not a token, expired before the sweep', async () => {
  const other = `${service.url}/v1/exports/${'A'.repeat(24)}/${encodeURIComponent(NAME)}`;
  const wrongName = `${service.url}/v1/exports/${file.token}/other.glb`;
  const notToken = `${service.url}/v1/exports/..%2F..%2Faccounts.sqlite/x`;
  const badEscape = `${service.url}/v1/exports/${file.token}/%E0%A4%A`;
  const expired = await service.exports.put('old.stl', BYTES, 'model/stl');
  const sidecar = join(service.config.exports.dir, expired.token, 'meta.json');
  writeFileSync(sidecar, JSON.stringify({ ...JSON.parse(readFileSync(sidecar, 'utf8')), expiresAt: Date.now() - 1 }));
  for (const target of [other, wrongName, notToken, badEscape, `${service.url}/v1/exports/${expired.token}/old.stl`]) {
    for (const method of ['GET', 'HEAD'] as const) {
      const r = await get(target, {}, method);
      assert.equal(r.status, 404, `${method} ${target}`);
      if (method === 'GET') {
        assert.equal(r.json().code, 'not_found');
        assert.deepEqual(r.json().details, []);
      }
    }
  }
});

test('other methods: 405 with Allow', async () => {
  const r = await get(url, {}, 'POST');
  assert.equal(r.status, 405);
  assert.equal(r.headers.allow, 'GET, HEAD');
  assert.equal(r.json().code, 'method_not_allowed');
});

test('the service on an S3 store (s3rver): put through the store, 200 and 206 through the route', async () => {
  let s3: TestS3 | null = null;
  let s3Service: RunningService | null = null;
  try {
    s3 = await startTestS3();
    const exportsConfig = {
      ...exportStoreConfigFromEnv({}, '/nonexistent'),
      kind: 's3' as const,
      s3: s3.config,
    };
    s3Service = await startTestService({ exports: exportsConfig });
    const put = await s3Service.exports.put('s3.glb', BYTES, 'model/gltf-binary');
    const target = `${s3Service.url}/v1/exports/${put.token}/s3.glb`;
    const full = await get(target);
    assert.equal(full.status, 200);
    assert.deepEqual(new Uint8Array(full.body), BYTES);
    assert.equal(full.headers.etag, put.etag);
    const part = await get(target, { range: 'bytes=0-0' });
    assert.equal(part.status, 206);
    assert.equal(part.body.toString(), '0');
    assert.equal((await get(`${s3Service.url}/v1/exports/${put.token}/other.glb`)).status, 404);
  } finally {
    await s3Service?.close();
    await s3?.close();
  }
});

test('the OpenAPI document describes the download route, without a key', async () => {
  const doc = (await get(`${service.url}/v1/openapi.json`)).json();
  const op = doc.paths['/v1/exports/{token}/{name}'].get;
  assert.deepEqual(op.security, []);
  assert.deepEqual(Object.keys(op.responses).sort(), ['200', '206', '304', '404', '416']);
});
