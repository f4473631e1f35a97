/**
 * A throw-away PostgreSQL 15 + PostGIS 3 cluster for tests and the bench: initdb in a scratch
 * directory as an unprivileged user (root runs it as `postgres` through runuser), trust auth on a
 * Unix socket in that directory and on loopback, a free port, one database with postgis. Stopped
 * and removed by close().
 *
 *   const pg = await startPostgisCluster();
 *   // pg.url is postgres://…; pg.createDatabase('other') gives another
 *   await pg.close();
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const PG_BIN = '/usr/lib/postgresql/15/bin';

export interface PostgisCluster {
  /** postgres://… for the database created at start (postgis installed). */
  url: string;
  port: number;
  /** Runs psql against a database of this cluster (for tests that need raw SQL). */
  psql(sql: string, database?: string): string;
  /** A new database with postgis, returned as a URL. */
  createDatabase(name: string): string;
  /** CPU-seconds the server's processes (the postmaster and its live children) have used so far. */
  cpuSeconds(): number;
  close(): Promise<void>;
}

/** Why the cluster cannot start here (binaries missing), or null when it can. */
export function postgisUnavailable(): string | null {
  if (!existsSync(join(PG_BIN, 'initdb'))) return `PostgreSQL 15 is not installed (${PG_BIN}); install postgresql-15 and postgresql-15-postgis-3`;
  if (!existsSync('/usr/share/postgresql/15/extension/postgis.control')) return 'PostGIS 3 for PostgreSQL 15 is not installed (postgresql-15-postgis-3)';
  return null;
}

const CLK_TCK = 100;

function statFields(pid: number): string[] | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' '); // from #3 (state) on
  } catch {
    return null; // gone meanwhile
  }
}

function parentOf(pid: number): number {
  return Number(statFields(pid)?.[1] ?? -1);
}

function processCpu(pid: number): number {
  const f = statFields(pid);
  return f ? (Number(f[11]) + Number(f[12])) / CLK_TCK : 0;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** initdb refuses root: as root the cluster belongs to the `postgres` system user. */
function asClusterUser(): string[] {
  return process.getuid?.() === 0 ? ['runuser', '-u', 'postgres', '--'] : [];
}

function run(argv: string[], input?: string): string {
  const [cmd, ...args] = [...asClusterUser(), ...argv];
  return execFileSync(cmd, args, { encoding: 'utf8', input, stdio: ['pipe', 'pipe', 'pipe'] });
}

export async function startPostgisCluster(database = 'city_context'): Promise<PostgisCluster> {
  const unavailable = postgisUnavailable();
  if (unavailable) throw new Error(unavailable);
  const dir = mkdtempSync(join(tmpdir(), 'cc-postgis-'));
  chmodSync(dir, 0o777);
  const data = join(dir, 'data');
  if (process.getuid?.() === 0) execFileSync('chown', ['postgres', dir]);
  run([join(PG_BIN, 'initdb'), '-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
  // a test cluster: speed over durability
  writeFileSync(join(dir, 'extra.conf'), 'fsync = off\nsynchronous_commit = off\nfull_page_writes = off\nshared_buffers = 128MB\nmax_connections = 100\n');
  run(['sh', '-c', `cat ${join(dir, 'extra.conf')} >> ${join(data, 'postgresql.conf')}`]);
  const port = await freePort();
  run([join(PG_BIN, 'pg_ctl'), '-D', data, '-l', join(dir, 'log'), '-w', '-o', `-p ${port} -k ${dir} -h 127.0.0.1`, 'start']);
  const psql = (sql: string, db = database) =>
    execFileSync(join(PG_BIN, 'psql'), ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', '-d', db, '-v', 'ON_ERROR_STOP=1', '-qAt', '-c', sql], {
      encoding: 'utf8',
    });
  const createDatabase = (name: string) => {
    psql(`CREATE DATABASE ${name}`, 'postgres');
    psql('CREATE EXTENSION postgis; CREATE EXTENSION hstore', name);
    return `postgres://postgres@127.0.0.1:${port}/${name}`;
  };
  const url = createDatabase(database);
  const postmaster = Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
  return {
    url,
    port,
    psql,
    createDatabase,
    cpuSeconds() {
      const children = readdirSync('/proc').filter((p) => /^\d+$/.test(p) && parentOf(Number(p)) === postmaster);
      return [postmaster, ...children.map(Number)].reduce((sum, pid) => sum + processCpu(pid), 0);
    },
    async close() {
      const [cmd, ...args] = [...asClusterUser(), join(PG_BIN, 'pg_ctl'), '-D', data, '-m', 'immediate', '-w', 'stop'];
      spawnSync(cmd, args, { stdio: 'ignore' });
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
