/**
 * `npm start` runs the service compiled to `dist/` (plain JavaScript: no TypeScript loader in the
 * main thread or in any worker). Paths built at run time — the worker files, export writers loaded
 * on demand — must resolve there too: build and start `dist/src/main.js` as npm start does (the
 * bench's starter), and ask for geometry, for an export whose writer is loaded lazily in an
 * export thread, and for the web page the build bundled.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { REPO_ROOT } from '../../src/repo-root.ts';
import { startServer } from '../support/service/compiled-server.ts';
import { postContext } from '../support/service/http.ts';
import { square } from '../support/polygons.ts';

test('the compiled service (npm start) serves geometry and exports from dist/', { timeout: 120_000 }, async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'cc-dist-'));
  const server = await startServer(dataDir, join(REPO_ROOT, 'data/monaco/monaco.osm.pbf'), {
    CITY_WORKERS: '1',
    CITY_WARMUP_MS: '0',
    CITY_WARMUP_REQUESTS_MS: '0',
  });
  try {
    const polygon = square(43.7345, 7.419, 250);
    const json = await postContext(server.base, server.key, { polygon, settings: { geometry: ['buildings'] } });
    assert.equal(json.status, 200, json.text);
    assert.ok(json.json.geometry[0].meshes.length > 0, 'buildings from the compiled workers');
    const exp = await postContext(server.base, server.key, { polygon, export: { format: '3dm' } });
    assert.equal(exp.status, 200, exp.text);
    const file = await request(exp.json.downloadUrl);
    const bytes = Buffer.from(await file.body.arrayBuffer());
    assert.equal(file.statusCode, 200);
    assert.ok(bytes.length > 1000 && bytes.subarray(0, 24).toString('latin1').startsWith('3D Geometry File Format'), 'a 3dm file');
    // the build bundled the web page, and the compiled service serves it with its scripts
    for (const [path, type] of [
      ['/', 'text/html'],
      ['/assets/app.js', 'text/javascript'],
      ['/assets/maplibre-gl-worker.mjs', 'text/javascript'],
    ]) {
      const res = await request(`${server.base}${path}`);
      await res.body.dump();
      assert.equal(res.statusCode, 200, path);
      assert.match(String(res.headers['content-type']), new RegExp(`^${type}`), path);
    }
  } finally {
    await server.stop();
  }
});
