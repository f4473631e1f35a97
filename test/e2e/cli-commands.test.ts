/**
 * The other subcommands of `city-context` in their own processes — `serve` (the service as npm
 * start runs it), `import` (the OSM store), `import-buildings` (the premium store), `admin`
 * (accounts) — and `generate` stopped by Ctrl-C
 * (SIGINT) mid-run: exit 1 and nothing half-written left behind.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { request } from 'undici';
import { storePaths } from '../../src/config.ts';
import { storeIsCurrent } from '../../src/sources/osm/store.ts';
import { REPO_ROOT } from '../../src/repo-root.ts';
import { cli, type CliRun } from '../support/cli/run-cli.ts';

const MONACO = join(REPO_ROOT, 'data/monaco/monaco.osm.pbf');

function exited(r: CliRun, code: number | null): void {
  assert.equal(r.code, code, `exit ${r.code}\nstdout: ${r.stdout.slice(0, 2000)}\nstderr: ${r.stderr}`);
}

test('import builds a store the pipeline opens; admin manages accounts in the same data directory', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cc-cli-import-'));
  const env = { CITY_DATA_DIR: join(dir, 'var') };
  const imported = await cli(['import', MONACO], { cwd: dir, env });
  exited(imported, 0);
  assert.match(imported.stdout, /^imported monaco\.osm\.pbf → .*osm\.sqlite$/m);
  assert.match(imported.stderr, /^pass 2\/2: .*\(100%\)/m);
  assert.ok(storeIsCurrent(storePaths(env.CITY_DATA_DIR).osm), 'a store the pipeline opens');

  const created = await cli(['admin', 'create-account', '--name', 'Surveyors', '--balance', '3', '--json'], { cwd: dir, env });
  exited(created, 0);
  const account = JSON.parse(created.stdout);
  assert.equal(account.balanceKm2, 3);
  const listed = await cli(['admin', 'list'], { cwd: dir, env });
  exited(listed, 0);
  assert.match(listed.stdout, new RegExp(`^${account.id}  "Surveyors", active, balance 3 km²`, 'm'));
  const bad = await cli(['admin', 'top-up', '--account', 'x', '--km2', '1'], { cwd: dir, env });
  exited(bad, 2);
  assert.match(bad.stderr, /--account must be a positive whole number[\s\S]*city-context admin help/);
  exited(await cli(['import', join(dir, 'missing.osm.pbf')], { cwd: dir, env }), 1);
});

test('import-buildings imports the Zurich CityJSON sample into the premium store; a missing --country is a usage error (exit 2)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cc-cli-premium-'));
  const env = { CITY_DATA_DIR: join(dir, 'var') };
  const sample = join(REPO_ROOT, 'data/premium/zurich_subset_lod2.json');
  const imported = await cli(['import-buildings', sample, '--dataset', 'zurich', '--country', 'CH-ZH'], { cwd: dir, env });
  exited(imported, 0);
  assert.match(imported.stdout, /^imported dataset zurich → .*premium\.sqlite$/m);
  assert.match(imported.stdout, /^buildings: 49 \(161 parts/m);
  assert.match(imported.stderr, /^file 1\/1 .*\(100%\)/m);
  const bad = await cli(['import-buildings', sample, '--dataset', 'zurich'], { cwd: dir, env });
  exited(bad, 2);
  assert.match(bad.stderr, /--country/);
});

test('serve starts the service as npm start does: it listens, prints the demo key, answers with it; SIGTERM stops it', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cc-cli-serve-'));
  const dataDir = join(dir, 'var');
  let session: Promise<void> | null = null;
  const run = await cli(['serve', '--port', '0', '--data-dir', dataDir, '--workers', '1'], {
    cwd: dir,
    env: { CITY_WARMUP_MS: '0', CITY_WARMUP_REQUESTS_MS: '0' },
    onOutput: (child, { stdout }) => {
      const base = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(stdout)?.[1];
      if (!base || session) return;
      session = (async () => {
        try {
          while ((await request(`${base}/readyz`).then((r) => (r.body.dump(), r.statusCode))) !== 200) await new Promise((r) => setTimeout(r, 100));
          const key = readFileSync(storePaths(dataDir).demoKey, 'utf8').trim();
          assert.ok(stdout.includes(key), 'the demo key printed once');
          const answer = await request(`${base}/v1/context`, {
            method: 'POST',
            headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
            body: JSON.stringify({
              polygon: [
                [43.7335, 7.418],
                [43.7335, 7.4186],
                [43.7339, 7.4186],
                [43.7339, 7.418],
                [43.7335, 7.418],
              ],
              settings: { geometry: ['buildings'] },
            }),
          });
          assert.equal(answer.statusCode, 200, await answer.body.text());
          await answer.body.dump();
        } finally {
          child.kill('SIGTERM');
        }
      })();
    },
  });
  assert.ok(session, `it never said where it listens:\n${run.stdout}\n${run.stderr}`);
  await session;
  exited(run, 0);
  assert.match(run.stdout, /SIGTERM: closing…/);
});

test('Ctrl-C (SIGINT) during generate: exit 1, "interrupted", and no output or temporary file left', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cc-cli-interrupt-'));
  let sent = false;
  // 16 tiles on one worker: seconds of work after the first progress line, when the signal goes
  const run = await cli(['generate', '--bbox', '7.4100,43.7280,7.4300,43.7420', '-f', 'obj', '-o', 'site.obj.zip'], {
    cwd: dir,
    env: { CITY_DATA_DIR: join(dir, 'var'), CITY_WORKERS: '1' },
    ownGroup: true,
    onOutput: (child, { stderr }) => {
      if (sent || !/^progress: tiles 0\/\d+/m.test(stderr)) return;
      sent = true;
      process.kill(-child.pid!, 'SIGINT'); // the whole group, as a terminal's Ctrl-C
    },
  });
  assert.ok(sent);
  exited(run, 1);
  assert.match(run.stderr, /^progress: tiles \d+\/\d+, .* \(stopped\)$/m);
  assert.match(run.stderr, /^error: interrupted: nothing was written$/m);
  assert.deepEqual(
    readdirSync(dir).filter((n) => n !== 'var'),
    [],
  );
});
