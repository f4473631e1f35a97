/**
 * `npm start` runs the service compiled to `dist/` (plain JavaScript: no TypeScript loader in the
 * main thread or in any worker). Paths built at run time — the worker file, export writers loaded
 * on demand — must resolve there too: build, start `dist/src/main.js` as npm start does, and ask
 * for geometry and for an export whose writer is loaded lazily in a worker.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { REPO_ROOT } from '../src/repo-root.ts';
import { postContext, square } from './helpers/http.ts';

test('the compiled service (npm start) serves geometry and exports from dist/', { timeout: 120_000 }, async () => {
  execFileSync('npm', ['run', '--silent', 'build'], { cwd: REPO_ROOT, stdio: 'pipe' });
  const dataDir = mkdtempSync(join(tmpdir(), 'cc-dist-'));
  const port = 19000 + Math.floor(Math.random() * 1000);
  const child = spawn(process.execPath, ['--enable-source-maps', join(REPO_ROOT, 'dist/src/main.js')], {
    env: { ...process.env, CITY_DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', CITY_WORKERS: '1', CITY_WARMUP_MS: '0', CITY_WARMUP_REQUESTS_MS: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout.on('data', (d) => { log += d; });
  child.stderr.on('data', (d) => { log += d; });
  const base = `http://127.0.0.1:${port}`;
  try {
    let up = false;
    for (let i = 0; i < 600 && !up && child.exitCode === null; i++) {
      try {
        const res = await request(`${base}/healthz`);
        await res.body.dump();
        up = res.statusCode === 200;
      } catch {
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    assert.ok(up, `the compiled service did not start:\n${log}`);
    const key = readFileSync(join(dataDir, 'demo-key.txt'), 'utf8').trim();
    const polygon = square(43.7345, 7.419, 250);
    const json = await postContext(base, key, { polygon, settings: { geometry: ['buildings'] } });
    assert.equal(json.status, 200, json.text);
    assert.ok(json.json.geometry[0].meshes.length > 0, 'buildings from the compiled workers');
    const exp = await postContext(base, key, { polygon, export: { format: '3dm' } });
    assert.equal(exp.status, 200, `${exp.text}\n${log}`);
    const file = await request(exp.json.downloadUrl);
    const bytes = Buffer.from(await file.body.arrayBuffer());
    assert.equal(file.statusCode, 200);
    assert.ok(bytes.length > 1000 && bytes.subarray(0, 24).toString('latin1').startsWith('3D Geometry File Format'), 'a 3dm file');
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
  }
});
