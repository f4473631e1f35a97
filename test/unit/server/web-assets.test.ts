/**
 * The page's files are served as built: the right content types, the pages revalidated and the
 * assets cached, gzip when asked, 304 for a current copy, the page's security policy, and nothing
 * but the files the build wrote (no path made up in the URL reaches the disk).
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { WebAssets } from '../../../src/server/web-assets.ts';

const dir = mkdtempSync(join(tmpdir(), 'cc-web-assets-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const built = join(dir, 'web');
mkdirSync(built);
writeFileSync(join(built, 'index.html'), '<!doctype html><title>x</title>');
writeFileSync(join(built, 'app.js'), `console.log(${JSON.stringify('x'.repeat(5000))});`);
writeFileSync(join(built, 'maplibre-gl-worker.mjs'), 'self.onmessage = () => {};');
writeFileSync(join(dir, 'secret.txt'), 'not served');
const assets = new WebAssets({ dir: built });

interface Answer {
  status: number;
  headers: Record<string, string | number>;
  body: Buffer;
}

function get(path: string, headers: Record<string, string> = {}, method = 'GET'): Answer | string {
  const out: Answer = { status: 0, headers: {}, body: Buffer.alloc(0) };
  const res = {
    writeHead(status: number, h: Record<string, string | number>) {
      out.status = status;
      out.headers = h;
    },
    end(body?: Buffer) {
      out.body = body ?? Buffer.alloc(0);
    },
  } as never;
  try {
    if (!assets.handles(path)) return 'not handled';
    assets.serve({ method, headers } as never, res, path);
    return out;
  } catch (err) {
    return (err as { code: string }).code;
  }
}

test('the page and its assets with their types, caching and the security policy', () => {
  const page = get('/') as Answer;
  assert.equal(page.status, 200);
  assert.equal(page.headers['content-type'], 'text/html; charset=utf-8');
  assert.equal(page.headers['cache-control'], 'no-cache');
  assert.match(String(page.headers['content-security-policy']), /default-src 'self'.*connect-src 'self';/);
  const worker = get('/assets/maplibre-gl-worker.mjs') as Answer;
  assert.equal(worker.headers['content-type'], 'text/javascript; charset=utf-8');
  assert.match(String(worker.headers['cache-control']), /max-age=\d+/);
  assert.equal(worker.headers['content-security-policy'], page.headers['content-security-policy'], 'the worker runs under the same policy');
  const zipped = get('/assets/app.js', { 'accept-encoding': 'gzip, br' }) as Answer;
  assert.equal(zipped.headers['content-encoding'], 'gzip');
  assert.equal(gunzipSync(zipped.body).toString(), (get('/assets/app.js') as Answer).body.toString());
  assert.equal((get('/assets/app.js', { 'if-none-match': String(zipped.headers.etag) }) as Answer).status, 304);
  assert.equal((get('/', {}, 'HEAD') as Answer).body.length, 0);
});

test('only what the build wrote: no other file, no path outside the folder, no other method', () => {
  assert.equal(get('/assets/secret.txt'), 'not_found');
  assert.equal(get('/assets/../secret.txt'), 'not_found');
  assert.equal(get('/assets/%2e%2e/secret.txt'), 'not_found');
  assert.equal(get('/assets/'), 'not_found');
  assert.equal(get('/docs'), 'not_found', 'not built here: a 404 that says to run the build');
  assert.equal(get('/', {}, 'POST'), 'method_not_allowed');
  assert.equal(get('/v1/context'), 'not handled');
});
