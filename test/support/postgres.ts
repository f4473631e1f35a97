/**
 * A throw-away PostgreSQL 15 cluster for tests: `initdb` in a scratch directory as an unprivileged
 * user (`postgres` via runuser when the tests run as root, which initdb refuses; the current user
 * otherwise), `pg_ctl` on a free loopback port with its socket in the same directory, trust
 * authentication on loopback only. Every test file that needs PostgreSQL starts its own cluster
 * (about a second) and gets fresh databases from it, so runs never share state.
 *
 * ```ts
 * const pg = await startTestPostgres();         // one cluster per test file
 * const url = await pg.createDatabase();        // a new empty database: postgres://…/ccN
 * after(() => pg.stop());
 * ```
 * Other stores (PostGIS) reuse it: `pg.createDatabase({ extensions: ['postgis'] })`.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

export interface TestPostgres {
  /** `postgres://postgres@127.0.0.1:PORT/postgres`: the cluster's maintenance database. */
  adminUrl: string;
  port: number;
  /** The scratch directory (data in `data/`, the socket and log beside it). */
  dir: string;
  /** Creates an empty database (named `cc1`, `cc2`… unless `name` is given) and returns its URL. */
  createDatabase(options?: { name?: string; extensions?: string[] }): Promise<string>;
  /** Runs SQL on the maintenance database (e.g. to terminate connections). */
  query(sql: string, values?: unknown[]): Promise<pg.QueryResult>;
  /** Stops the server, keeping its data: the database "goes away" (connections fail) until startServer. */
  stopServer(): void;
  /** Starts the stopped server again on the same port and data. */
  startServer(): void;
  /** Stops the server (fast shutdown) and removes the directory. Safe to call twice. */
  stop(): void;
}

/** Where the PostgreSQL server binaries are: `pg_config --bindir`, else Debian's path for 15. */
export function postgresBinDir(): string {
  const debian = '/usr/lib/postgresql/15/bin';
  if (existsSync(join(debian, 'initdb'))) return debian;
  try {
    const dir = execFileSync('pg_config', ['--bindir'], { encoding: 'utf8' }).trim();
    if (existsSync(join(dir, 'initdb'))) return dir;
  } catch {
    // no pg_config on PATH
  }
  throw new Error('PostgreSQL server binaries not found (Debian: apt-get install postgresql-15)');
}

/** True when initdb is installed (for a clear message from suites that need it). */
export function postgresAvailable(): boolean {
  try {
    postgresBinDir();
    return true;
  } catch {
    return false;
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Runs a server binary as the cluster's owner. */
function asOwner(bin: string, args: string[]): void {
  const root = process.getuid?.() === 0;
  const [cmd, argv] = root ? ['runuser', ['-u', 'postgres', '--', bin, ...args]] : [bin, args];
  const r = spawnSync(cmd, argv, { encoding: 'utf8', timeout: 60_000 });
  if (r.error || r.status !== 0) throw new Error(`${bin} ${args.join(' ')} failed: ${r.error?.message ?? ''}${r.stderr}${r.stdout}`);
}

export async function startTestPostgres(): Promise<TestPostgres> {
  const bin = postgresBinDir();
  const dir = mkdtempSync(join(tmpdir(), 'cc-pg-'));
  if (process.getuid?.() === 0) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(dir, uid, gid);
  }
  const data = join(dir, 'data');
  asOwner(join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C.UTF-8', '--no-sync']);
  let port = 0;
  // fsync off: a test cluster never outlives a crash; it makes commits as cheap as the tests need.
  const startOn = (p: number) =>
    asOwner(join(bin, 'pg_ctl'), [
      '-D',
      data,
      '-l',
      join(dir, 'log'),
      '-o',
      `-p ${p} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`,
      '-w',
      '-t',
      '60',
      'start',
    ]);
  const stopServer = () => asOwner(join(bin, 'pg_ctl'), ['-D', data, '-m', 'fast', '-w', 'stop']);
  for (let attempt = 0; ; attempt++) {
    port = await freePort();
    try {
      startOn(port);
      break;
    } catch (err) {
      if (attempt >= 2) {
        rmSync(dir, { recursive: true, force: true });
        throw err;
      }
    }
  }
  const adminUrl = `postgres://postgres@127.0.0.1:${port}/postgres`;
  let made = 0;
  let stopped = false;
  const query = async (sql: string, values?: unknown[]) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      return await client.query(sql, values);
    } finally {
      await client.end();
    }
  };
  const stop = () => {
    if (stopped) return;
    stopped = true;
    try {
      if (existsSync(join(data, 'postmaster.pid'))) stopServer();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
  process.once('exit', stop); // a test file that forgets (or fails before) its stop leaves no server behind
  return {
    adminUrl,
    port,
    dir,
    query,
    stop,
    stopServer,
    startServer: () => startOn(port),
    async createDatabase(options = {}) {
      const name = options.name ?? `cc${++made}`;
      if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`not a plain database name: ${name}`);
      await query(`CREATE DATABASE ${name}`);
      const url = `postgres://postgres@127.0.0.1:${port}/${name}`;
      if (options.extensions?.length) {
        const client = new pg.Client({ connectionString: url });
        await client.connect();
        try {
          for (const ext of options.extensions) await client.query(`CREATE EXTENSION IF NOT EXISTS ${pg.escapeIdentifier(ext)}`);
        } finally {
          await client.end();
        }
      }
      return url;
    },
  };
}
