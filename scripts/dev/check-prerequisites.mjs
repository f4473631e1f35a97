/**
 * `npm test`'s first step (package.json "pretest"): the export tests judge our OBJ, STL, PLY, DAE and
 * DXF files with independent Debian tools (test/support/checks/export-readers.ts), run as processes,
 * and the account store tests start PostgreSQL 15 clusters (test/support/postgres.ts). When one
 * is missing, this names it and the exact apt-get line, and stops before the typecheck, instead of
 * ~14 export tests failing one by one. CI installs them itself (.ci/run).
 *
 * CITY_SKIP_PREREQ_CHECK=1 lets the run go on with the same warning: it skips no test, so the export
 * tests that need a missing tool still fail.
 *
 * Plain JavaScript (no tsx) so it runs in a fraction of a second; the paths below are the ones
 * test/support/checks/export-readers.ts uses (PYTHON, COLLADA_XSD) and the web page test's browser
 * (test/support/browser.ts, CHROMIUM).
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const PYTHON = '/usr/bin/python3';
const COLLADA_XSD = '/usr/lib/opencollada/collada_schema_1_4_1.xsd';
const CHROMIUM = '/usr/bin/chromium';
/** Where test/support/postgres.ts looks for the server binaries: Debian's path for 15, then `pg_config --bindir`. */
const POSTGRES_BIN_DIRS = () => {
  const r = spawnSync('pg_config', ['--bindir'], { encoding: 'utf8' });
  return ['/usr/lib/postgresql/15/bin', ...(r.status === 0 ? [r.stdout.trim()] : [])];
};

/** Whether `cmd args` runs and exits 0. */
function runs(cmd, args) {
  const r = spawnSync(cmd, args, { stdio: 'ignore', timeout: 20_000 });
  return !r.error && r.status === 0;
}

const checks = [
  { pkg: 'assimp-utils', what: '`assimp` (reads OBJ, STL, PLY, DAE and DXF back)', ok: () => runs('assimp', ['version']) },
  { pkg: 'python3-ezdxf', what: `ezdxf for ${PYTHON} (audits the DXF files)`, ok: () => runs(PYTHON, ['-c', 'import ezdxf']) },
  { pkg: 'opencollada-tools', what: `the COLLADA 1.4.1 schema (${COLLADA_XSD})`, ok: () => existsSync(COLLADA_XSD) },
  { pkg: 'libxml2-utils', what: '`xmllint` (validates DAE files against that schema)', ok: () => runs('xmllint', ['--version']) },
  { pkg: 'proj-bin', what: '`cs2cs` (the reference projection of the export precision test)', ok: () => runs('cs2cs', []) },
  { pkg: 'chromium', what: '`/usr/bin/chromium` (the web page test drives it with playwright-core)', ok: () => existsSync(CHROMIUM) },
  {
    pkg: 'postgresql-15',
    what: 'the PostgreSQL 15 server (`initdb`, `pg_ctl`: throw-away clusters for the account store tests)',
    ok: () => POSTGRES_BIN_DIRS().some((dir) => existsSync(`${dir}/initdb`) && existsSync(`${dir}/pg_ctl`)),
  },
  { pkg: 'osm2pgsql', what: '`osm2pgsql` (loads the PostGIS store in its tests)', ok: () => runs('osm2pgsql', ['--version']) },
  {
    pkg: 'postgresql-15-postgis-3',
    what: 'PostgreSQL 15 with PostGIS 3 (the throw-away cluster of the PostGIS store tests)',
    ok: () => existsSync('/usr/lib/postgresql/15/bin/initdb') && existsSync('/usr/share/postgresql/15/extension/postgis.control'),
  },
  { pkg: 'python3-yaml', what: `PyYAML for ${PYTHON} (reads the compose file of scripts/deploy/)`, ok: () => runs(PYTHON, ['-c', 'import yaml']) },
];

const missing = checks.filter((c) => !c.ok());
if (missing.length === 0) process.exit(0);

const skip = process.env.CITY_SKIP_PREREQ_CHECK === '1';
const lines = [
  `Prerequisites: ${missing.length} of the tools the tests run ${missing.length === 1 ? 'is' : 'are'} missing:`,
  ...missing.map((c) => `  - ${c.what}: Debian package ${c.pkg}`),
  'Install them (Debian/Ubuntu):',
  `  sudo apt-get install -y --no-install-recommends ${missing.map((c) => c.pkg).join(' ')}`,
  skip
    ? 'CITY_SKIP_PREREQ_CHECK=1: going on; the export tests that need them will fail.'
    : 'Or run anyway with CITY_SKIP_PREREQ_CHECK=1 npm test (no test is skipped: the export tests that need them fail).',
];
console.error(lines.join('\n'));
process.exit(skip ? 0 : 1);
