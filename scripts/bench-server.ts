/**
 * The service as a separate process for `npm run bench`: start it on a data directory, time one
 * request over loopback with what it cost the server (CPU-seconds of all its threads and peak
 * resident memory during the request, both from /proc), stop it. Also the small formatting helpers
 * the bench prints with.
 */
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { request } from 'undici';
import { REPO_ROOT, storePaths } from '../src/config.ts';
import { AccountStore } from '../src/accounts/index.ts';

export interface BenchServer {
  pid: number;
  base: string;
  key: string;
  /** The server's peak resident set size since it started (across the per-request resets), MB. */
  peakRssMb(): number;
  /** Folds the current VmHWM into the lifetime peak (call before resetting it). */
  notePeak(): void;
  stop(): Promise<void>;
}

let built = false;

/**
 * Starts the service as `npm start` runs it — compiled to `dist/` once per bench, then
 * `dist/src/main.js` — on `dataDir` (the store there is used as is) and waits until it answers;
 * `env` adds or overrides service variables (e.g. fewer workers, no warm-up).
 */
export async function startServer(dataDir: string, extract: string, env: Record<string, string> = {}): Promise<BenchServer> {
  if (!built) {
    execFileSync('npm', ['run', '--silent', 'build'], { cwd: REPO_ROOT, stdio: 'inherit' });
    built = true;
  }
  const port = 18000 + Math.floor(Math.random() * 2000);
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

/** Clock ticks per second of /proc/<pid>/stat times (`getconf CLK_TCK`, normally 100). */
const CLK_TCK = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** utime + stime of the whole process (all threads, finished ones included), in seconds. */
function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' '); // fields from #3 (state) on
  return (Number(fields[11]) + Number(fields[12])) / CLK_TCK; // #14 utime, #15 stime
}

function vmKb(pid: number, field: 'VmHWM' | 'VmRSS'): number {
  const m = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) : NaN;
}

/** Resets the process's peak RSS (VmHWM) to its current RSS; false when the kernel refuses. */
function resetPeakRss(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

export interface Measured {
  firstByteMs: number;
  totalMs: number;
  bytes: number;
  /** Server CPU-seconds spent while the request ran (all threads). */
  cpuS: number;
  /** Server peak RSS during the request, MB (the lifetime peak when it could not be reset). */
  peakRssMb: number;
  peakIsLifetime: boolean;
}

/** One POST /v1/context, timed from the client, with the server's CPU and peak memory for it. */
export async function measure(server: BenchServer, body: unknown, gzip = false): Promise<Measured> {
  server.notePeak();
  const reset = resetPeakRss(server.pid);
  const cpu0 = cpuSeconds(server.pid);
  const start = performance.now();
  const res = await request(`${server.base}/v1/context`, {
    method: 'POST',
    headers: { authorization: `Bearer ${server.key}`, 'content-type': 'application/json', ...(gzip ? { 'accept-encoding': 'gzip' } : {}) },
    body: JSON.stringify(body),
  });
  let firstByteMs = 0, bytes = 0;
  for await (const chunk of res.body) {
    if (!firstByteMs) firstByteMs = performance.now() - start;
    bytes += (chunk as Buffer).length;
  }
  const totalMs = performance.now() - start;
  const cpuS = cpuSeconds(server.pid) - cpu0;
  const peakRssMb = vmKb(server.pid, 'VmHWM') / 1024;
  server.notePeak();
  if (res.statusCode !== 200) throw new Error(`HTTP ${res.statusCode}`);
  return { firstByteMs, totalMs, bytes, cpuS, peakRssMb, peakIsLifetime: !reset };
}

/** Per-figure medians of several runs. */
export function medianOf(runs: Measured[]): Measured {
  const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  return {
    firstByteMs: med(runs.map((r) => r.firstByteMs)),
    totalMs: med(runs.map((r) => r.totalMs)),
    bytes: med(runs.map((r) => r.bytes)),
    cpuS: med(runs.map((r) => r.cpuS)),
    peakRssMb: med(runs.map((r) => r.peakRssMb)),
    peakIsLifetime: runs.some((r) => r.peakIsLifetime),
  };
}

/** One untimed request to warm the server, then the medians of `runs` timed ones. */
export async function warmMedian(server: BenchServer, body: unknown, runs: number): Promise<Measured> {
  await measure(server, body);
  const out: Measured[] = [];
  for (let i = 0; i < runs; i++) out.push(await measure(server, body));
  return medianOf(out);
}

/**
 * A group's ~10 km² square requested alone (flat) and with `projectToTopography` (on the terrain),
 * each timed warm, printed with the server's CPU-seconds and peak RSS (barriers, instances).
 */
export async function benchGroupAloneAndOnTerrain(label: string, server: BenchServer, c: { centre: [number, number]; side: number }, runs: number, group: string, title: string): Promise<void> {
  const polygon = square(c.centre[0], c.centre[1], c.side);
  const flat = await warmMedian(server, { polygon, settings: { geometry: [group] } }, runs);
  console.log(`${label} ~10 km² ${title} alone, warm (median of ${runs}): ${figures(flat)}`);
  const onTerrain = await warmMedian(server, { polygon, settings: { geometry: [group], projectToTopography: true } }, runs);
  console.log(`${label} ~10 km² ${title} on the terrain (projectToTopography), warm (median of ${runs}): ${figures(onTerrain)}`);
}

/** A square polygon of `side` metres around lat/lon, as [lat, lon] pairs. */
export function square(lat: number, lon: number, side: number): [number, number][] {
  const dLat = side / 2 / 111320, dLon = side / 2 / (111320 * Math.cos((lat * Math.PI) / 180));
  return [[lat - dLat, lon - dLon], [lat - dLat, lon + dLon], [lat + dLat, lon + dLon], [lat + dLat, lon - dLon], [lat - dLat, lon - dLon]];
}

/** `value unit`, and beside it the target with met / missed by how much. */
export function verdict(value: number, target: number | undefined, unit: string, digits = 0): string {
  const shown = `${value.toFixed(digits)} ${unit}`;
  if (target === undefined) return shown;
  if (value <= target) return `${shown} (target ≤ ${target.toFixed(digits)}: met)`;
  return `${shown} (target ≤ ${target.toFixed(digits)}: missed by ${(value - target).toFixed(digits)} ${unit}, ${((100 * (value - target)) / target).toFixed(0)}%)`;
}

export const size = (bytes: number) => (bytes >= 1e6 ? `${(bytes / 1e6).toFixed(1)} MB` : `${(bytes / 1e3).toFixed(1)} kB`);

export interface Targets { firstByteMs?: number; totalMs?: number; cpuS?: number; peakRssMb?: number }

/** One line of figures, each beside its target when it has one. */
export function figures(m: Measured, t: Targets = {}): string {
  return `first byte ${verdict(m.firstByteMs, t.firstByteMs, 'ms')}, total ${verdict(m.totalMs, t.totalMs, 'ms')}, ${size(m.bytes)}, ` +
    `server CPU ${verdict(m.cpuS, t.cpuS, 'CPU-s', 2)}, server peak RSS${m.peakIsLifetime ? ' (lifetime)' : ''} ${verdict(m.peakRssMb, t.peakRssMb, 'MB')}`;
}
