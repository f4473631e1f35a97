/**
 * `city-context generate --url … --key …` against the service running compiled (`npm start`'s
 * dist/), the command compiled too (the bin takes dist/ once built): the JSON answer streamed to a
 * file is the model the in-process run makes for the same polygon; an export is downloaded from
 * its link and read back by the Khronos validator; the server's refusal (a wrong key) is its own
 * message with exit 1.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { REPO_ROOT } from '../../src/repo-root.ts';
import { problems, validateGltf } from '../support/checks/gltf-validate.ts';
import { cli, type CliRun } from '../support/cli/run-cli.ts';
import { startServer, type CompiledServer } from '../support/service/compiled-server.ts';
import { POLYGON } from '../support/service/export-app.ts';

const dir = mkdtempSync(join(tmpdir(), 'cc-cli-remote-'));
let server: CompiledServer;

before(async () => {
  server = await startServer(join(dir, 'server'), join(REPO_ROOT, 'data/monaco/monaco.osm.pbf'), {
    CITY_WORKERS: '1',
    CITY_WARMUP_MS: '0',
    CITY_WARMUP_REQUESTS_MS: '0',
  });
});
after(async () => {
  await server?.stop();
});

const pairs = POLYGON.map(([lat, lon]) => `${lat},${lon}`).join(' ');
const SETTINGS = '{"geometry":["buildings","barriers","instances"]}';

function exited(r: CliRun, code: number): void {
  assert.equal(r.code, code, `exit ${r.code}\nstdout: ${r.stdout.slice(0, 2000)}\nstderr: ${r.stderr}`);
}

/** Each group's type and item count. */
function shape(answer: { geometry: Record<string, unknown>[] }): Record<string, number> {
  return Object.fromEntries(answer.geometry.map((g) => [g.type as string, (g[g.geometryType as string] as unknown[]).length]));
}

test('--url: the JSON answer streamed to a file is the model the in-process run makes; bytes counted in the progress lines', async () => {
  const remote = await cli(['generate', '-p', pairs, '-s', SETTINGS, '--url', server.base, '--key', server.key, '-o', 'remote.json'], {
    cwd: dir,
    compiled: true,
  });
  exited(remote, 0);
  assert.equal(remote.stdout.trim(), join(dir, 'remote.json'));
  assert.match(remote.stderr, /^progress: \d+ KB, [\d.]+ s \(done\)$/m, 'a service tells bytes, not tiles');
  const local = await cli(['generate', '-p', pairs, '-s', SETTINGS, '-o', 'local.json', '-q'], {
    cwd: dir,
    compiled: true,
    env: { CITY_DATA_DIR: join(dir, 'local'), CITY_WORKERS: '1' },
  });
  exited(local, 0);
  const [a, b] = ['remote.json', 'local.json'].map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')));
  assert.deepEqual(shape(a), shape(b));
  assert.ok(shape(a).buildings > 10, JSON.stringify(shape(a)));
  assert.deepEqual(a.origin, b.origin);
  assert.deepEqual(a.attributions, b.attributions);
});

test('--url with --format: the file is downloaded from the link; --json gives {downloadUrl, file}', async () => {
  const r = await cli(['generate', '-p', pairs, '-f', 'glb', '--url', server.base, '--key', server.key, '--json', '-o', 'remote.glb'], {
    cwd: dir,
    compiled: true,
  });
  exited(r, 0);
  const summary = JSON.parse(r.stdout);
  assert.match(summary.downloadUrl, new RegExp(`^${server.base}/v1/exports/[A-Za-z0-9_-]+/city-context-43\\.7329N-7\\.4173E\\.glb$`));
  assert.equal(summary.file, join(dir, 'remote.glb'));
  assert.equal(summary.spatialReference.crs, 'local');
  const report = await validateGltf(readFileSync(summary.file));
  assert.equal(report.issues.numErrors, 0, problems(report));
  assert.ok((report.info?.totalTriangleCount ?? 0) > 1000);
});

test("the service's refusal is its own message: a wrong key exits 1 (unauthorized), and no file is left", async () => {
  const r = await cli(['generate', '-p', pairs, '--url', server.base, '--key', 'cc_dev_not-a-key', '-o', 'refused.json'], { cwd: dir, compiled: true });
  exited(r, 1);
  assert.match(r.stderr, /^error: .*\(unauthorized\)$/m);
  assert.ok(!readdirSync(dir).some((n) => n.includes('refused')));
});
