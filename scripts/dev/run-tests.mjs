#!/usr/bin/env node
/**
 * Runs one lane of the tests: `node scripts/dev/run-tests.mjs <unit|e2e> [filter ...] [-- node --test options]`.
 *
 * - unit: every test/unit/**\/*.test.ts, files in parallel (one per core; TEST_CONCURRENCY overrides).
 * - e2e:  every test/e2e/**\/*.test.ts, one file at a time (they start the service, servers, worker
 *         pools or child processes, and several measure time or memory).
 * - e2e-postgres: the account, credit and admission e2e files again with CITY_TEST_DATABASE=postgres,
 *         so their services keep accounts on PostgreSQL (a throw-away cluster per file,
 *         test/support/accounts/test-database.ts). `CITY_TEST_DATABASE=postgres npm run test:e2e`
 *         runs the whole e2e suite that way.
 *
 * The file list is expanded here rather than by `node --test 'test/unit/**\/*.test.ts'`, because the
 * runner takes glob patterns only from Node 21 on; this works the same on Node 20 and 22. Filters are
 * substrings of the path (`npm run test:unit -- skeleton roofs/`); options after `--` go to
 * `node --test` (e.g. `-- --test-reporter=dot`).
 */
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const LANES = {
  unit: { dir: 'test/unit', concurrency: Number(process.env.TEST_CONCURRENCY) || availableParallelism() },
  e2e: { dir: 'test/e2e', concurrency: 1 },
  'e2e-postgres': { dir: 'test/e2e', concurrency: 1, env: { CITY_TEST_DATABASE: 'postgres' } },
};
/** The e2e files e2e-postgres runs unless filters name others: whatever reserves, charges or admits. */
const POSTGRES_E2E = [
  'accounts-cli',
  'billing',
  'hardening-admission',
  'hardening-charge-before-answer',
  'hardening-delivery',
  'hardening-reservation-owners',
  'hardening-slow-readers',
  'premium-data-access',
].map((name) => `test/e2e/${name}.test.ts`);

const [lane, ...rest] = process.argv.slice(2);
if (!(lane in LANES)) {
  console.error('usage: node scripts/dev/run-tests.mjs <unit|e2e|e2e-postgres> [path filter ...] [-- node --test options]');
  process.exit(2);
}
const dash = rest.indexOf('--');
const filters = dash < 0 ? rest : rest.slice(0, dash);
const nodeOptions = dash < 0 ? [] : rest.slice(dash + 1);

/** Every *.test.ts below `dir`, as paths relative to the repository root with forward slashes, sorted. */
function testFiles(dir) {
  return readdirSync(join(ROOT, dir), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.test.ts'))
    .map((e) =>
      relative(ROOT, join(e.parentPath ?? e.path, e.name))
        .split(sep)
        .join('/'),
    )
    .sort();
}

// A test file outside both lanes would never run: refuse to pass silently.
const stray = testFiles('test').filter((f) => !Object.values(LANES).some((l) => f.startsWith(`${l.dir}/`)));
if (stray.length > 0) {
  console.error(`test files outside test/unit/ and test/e2e/ (move each into its lane):\n  ${stray.join('\n  ')}`);
  process.exit(1);
}

const { dir, concurrency, env = {} } = LANES[lane];
const chosen = filters.length === 0 && lane === 'e2e-postgres' ? POSTGRES_E2E : filters;
const files = testFiles(dir).filter((f) => chosen.length === 0 || chosen.some((s) => f.includes(s)));
if (files.length === 0) {
  console.error(`no test files in ${dir}${filters.length ? ` matching ${filters.join(', ')}` : ''}`);
  process.exit(1);
}
// every test process takes the run's fast-check seed (random locally, fixed in CI: test/support/fast-check-seed.mjs)
const args = [
  '--import',
  'tsx',
  '--import',
  new URL('../../test/support/fast-check-seed.mjs', import.meta.url).href,
  '--test',
  `--test-concurrency=${concurrency}`,
  ...nodeOptions,
  ...files,
];
const child = spawn(process.execPath, args, { cwd: ROOT, stdio: 'inherit', env: { ...process.env, ...env } });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
