/**
 * The service as a separate process, as an install runs it (`npm start`): compiled to `dist/` once
 * per process, then `dist/src/main.js` started on a data directory (its OSM store is used as is,
 * or imported from `extract`) and awaited until `/readyz` says its warm-up is over. For the test of
 * the compiled build and for the scripts that measure or load a real server (bench, soak, fuzz);
 * {@link spawnServer} alone for those that watch the start-up itself.
 */
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { request } from 'undici';
import { REPO_ROOT, storePaths } from '../../../src/config.ts';
import { SqliteAccountStore } from '../../../src/accounts/index.ts';
import { vmKb } from './proc.ts';

export interface CompiledServer {
  pid: number;
  base: string;
  /** The demo account's key (its balance topped up for long runs). */
  key: string;
  /** The server's peak resident set size since it started (across the per-request resets), MB. */
  peakRssMb(): number;
  /** Folds the current VmHWM into the lifetime peak (call before resetting it). */
  notePeak(): void;
  stop(): Promise<void>;
}

let built = false;

/** Compiles the service to `dist/` (`npm run build`) the first time this process asks. */
export function buildOnce(): void {
  if (built) return;
  execFileSync('npm', ['run', '--silent', 'build'], { cwd: REPO_ROOT, stdio: 'inherit' });
  built = true;
}

/** The compiled service just spawned: nothing awaited yet. */
export interface SpawnedServer {
  child: ChildProcess;
  pid: number;
  base: string;
  /** Settles when the process has exited. */
  exited: Promise<void>;
  /** What it printed on stdout so far (only when spawned with `output: true`). */
  output(): string;
}

/** Builds `dist/` once per process, then spawns `dist/src/main.js` on `dataDir` on a free port. */
export async function spawnServer(
  dataDir: string,
  extract: string,
  env: Record<string, string> = {},
  options: { output?: boolean } = {},
): Promise<SpawnedServer> {
  buildOnce();
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, ['--enable-source-maps', join(REPO_ROOT, 'dist/src/main.js')], {
    env: { ...process.env, CITY_DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', CITY_OSM_EXTRACT: extract, ...env },
    stdio: ['ignore', options.output ? 'pipe' : 'ignore', 'inherit'],
  });
  let out = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return { child, pid: child.pid!, base: `http://127.0.0.1:${port}`, exited, output: () => out };
}

/** GET `path` until it answers `status` (or the process exits, or ~2 minutes pass); true when it did. */
export async function waitForStatus(server: SpawnedServer, path: string, status: number, everyMs = 100): Promise<boolean> {
  for (let i = 0; i < 120_000 / everyMs && server.child.exitCode === null; i++) {
    try {
      const res = await request(`${server.base}${path}`);
      await res.body.dump();
      if (res.statusCode === status) return true;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, everyMs));
  }
  return false;
}

/**
 * Starts `dist/src/main.js` on `dataDir` and waits until it is warm (`/readyz` 200); `env` adds or
 * overrides service variables (e.g. fewer workers, no warm-up).
 */
export async function startServer(dataDir: string, extract: string, env: Record<string, string> = {}): Promise<CompiledServer> {
  const spawned = await spawnServer(dataDir, extract, env);
  const { child, exited, base } = spawned;
  if (!(await waitForStatus(spawned, '/readyz', 200))) {
    child.kill('SIGTERM');
    throw new Error(`the service did not start on ${dataDir}`);
  }
  // A whole bench spends more than the demo account's starting balance: top it up (in the server's own store).
  const accounts = await SqliteAccountStore.open(storePaths(dataDir).accounts, { releaseStale: false });
  try {
    for (const a of await accounts.listAccounts()) if (a.name === 'demo') await accounts.topUp(a.id, 1_000_000);
  } finally {
    await accounts.close();
  }
  const pid = child.pid!;
  let peakKb = 0;
  const notePeak = () => {
    peakKb = Math.max(peakKb, vmKb(pid, 'VmHWM'));
  };
  return {
    pid,
    base,
    key: readFileSync(storePaths(dataDir).demoKey, 'utf8').trim(),
    notePeak,
    peakRssMb: () => {
      notePeak();
      return peakKb / 1024;
    },
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** A loopback port nobody listens on now (the kernel's pick for port 0). */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}
