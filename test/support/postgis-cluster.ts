/**
 * A PostgreSQL 15 + PostGIS 3 cluster for the PostGIS store's tests and bench: the accounts'
 * throw-away cluster (./postgres.ts: initdb in a temp dir, a free port, fsync off) with databases
 * that have postgis and hstore, psql for raw SQL, and the CPU its server processes used.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { postgresAvailable, postgresBinDir, startTestPostgres } from './postgres.ts';

export interface PostgisCluster {
  /** postgres://… for the database created at start (postgis installed). */
  url: string;
  port: number;
  /** Runs psql against a database of this cluster (for tests that need raw SQL). */
  psql(sql: string, database?: string): string;
  /** A new database with postgis, returned as a URL. */
  createDatabase(name: string): Promise<string>;
  /** CPU-seconds the server's processes (the postmaster and its live children) have used so far. */
  cpuSeconds(): number;
  close(): Promise<void>;
}

/** Why the cluster cannot start here (binaries missing), or null when it can. */
export function postgisUnavailable(): string | null {
  if (!postgresAvailable()) return 'PostgreSQL 15 is not installed; install postgresql-15 and postgresql-15-postgis-3';
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

export async function startPostgisCluster(database = 'city_context'): Promise<PostgisCluster> {
  const unavailable = postgisUnavailable();
  if (unavailable) throw new Error(unavailable);
  const cluster = await startTestPostgres();
  const { port } = cluster;
  const psql = (sql: string, db = database) =>
    execFileSync(
      join(postgresBinDir(), 'psql'),
      ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', '-d', db, '-v', 'ON_ERROR_STOP=1', '-qAt', '-c', sql],
      {
        encoding: 'utf8',
      },
    );
  const createDatabase = (name: string) => cluster.createDatabase({ name, extensions: ['postgis', 'hstore'] });
  const url = await createDatabase(database);
  const postmaster = Number(readFileSync(join(cluster.dir, 'data', 'postmaster.pid'), 'utf8').split('\n')[0]);
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
      cluster.stop();
    },
  };
}
