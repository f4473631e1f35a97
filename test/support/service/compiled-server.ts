/**
 * The service as a separate process, as an install runs it (`npm start`): compiled to `dist/` once
 * per process, then `dist/src/main.js` started on a data directory (its OSM store is used as is,
 * or imported from `extract`) and awaited until it answers /healthz. For the test of the compiled
 * build and for the scripts that measure or load a real server (bench, soak, fuzz).
 */
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { request } from 'undici';
import { REPO_ROOT, storePaths } from '../../../src/config.ts';
import { AccountStore } from '../../../src/accounts/index.ts';
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

/**
 * Starts `dist/src/main.js` on `dataDir` and waits until it answers; `env` adds or overrides
 * service variables (e.g. fewer workers, no warm-up).
 */
export async function startServer(dataDir: string, extract: string, env: Record<string, string> = {}): Promise<CompiledServer> {
  if (!built) {
    execFileSync('npm', ['run', '--silent', 'build'], { cwd: REPO_ROOT, stdio: 'inherit' });
    built = true;
  }
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, ['--enable-source-maps', join(REPO_ROOT, 'dist/src/main.js')], {
    env: { ...process.env, CITY_DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', CITY_OSM_EXTRACT: extract, ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const base = `http://127.0.0.1:${port}`;
  let ready = false;
  for (let i = 0; i < 1200 && !ready && child.exitCode === null; i++) {
    try {
      const res = await request(`${base}/healthz`);
      await res.body.dump();
      ready = res.statusCode === 200;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  if (!ready) {
    child.kill('SIGTERM');
    throw new Error(`the service did not start on ${dataDir}`);
  }
  // A whole bench spends more than the demo account's starting balance: top it up (in the server's own store).
  const accounts = AccountStore.open(storePaths(dataDir).accounts, { releaseStale: false });
  try {
    for (const a of accounts.listAccounts()) if (a.name === 'demo') accounts.topUp(a.id, 1_000_000);
  } finally {
    accounts.close();
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
