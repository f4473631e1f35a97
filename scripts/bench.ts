/**
 * `npm run bench`: imports the bundled monaco-region-2016 extract, starts the service on it as a
 * separate process (as an install would run it) and times real requests over loopback. Prints
 * each figure beside its target. Nothing here asserts: targets are for people to read.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { REPO_ROOT, storePaths } from '../src/config.ts';
import { importOsm } from '../src/sources/osm/import.ts';
import { benchBuildings } from './bench-buildings.ts';

interface Case { name: string; centre: [number, number]; side: number; settings: Record<string, unknown>; targets: { firstByteMs?: number; totalMs?: number } }

const CASES: Case[] = [
  { name: '~1 km² buildings', centre: [43.735, 7.419], side: 1000, settings: { geometry: ['buildings'] }, targets: { totalMs: 400 } },
  { name: '~10 km² buildings', centre: [43.739, 7.424], side: 3150, settings: { geometry: ['buildings'] }, targets: { firstByteMs: 300, totalMs: 2000 } },
  { name: '~10 km² topography elevationMap (combined)', centre: [43.739, 7.424], side: 3150, settings: { geometry: ['topography'] }, targets: {} },
  { name: '~10 km² topography elevationMap (per tile)', centre: [43.739, 7.424], side: 3150, settings: { geometry: ['topography'], combineElevationMaps: false }, targets: {} },
  { name: '~10 km² topography meshes', centre: [43.739, 7.424], side: 3150, settings: { geometry: ['topography'], topographyReturnType: 'meshes' }, targets: {} },
  { name: '~10 km² buildings on terrain + topography', centre: [43.739, 7.424], side: 3150, settings: { geometry: ['buildings', 'topography'] }, targets: {} },
];
const RUNS = Number(process.env.BENCH_RUNS || 3);

function square(lat: number, lon: number, side: number): [number, number][] {
  const dLat = side / 2 / 111320, dLon = side / 2 / (111320 * Math.cos((lat * Math.PI) / 180));
  return [[lat - dLat, lon - dLon], [lat - dLat, lon + dLon], [lat + dLat, lon + dLon], [lat + dLat, lon - dLon], [lat - dLat, lon - dLon]];
}

function verdict(value: number, target: number | undefined, unit: string): string {
  if (target === undefined) return `${value.toFixed(0)} ${unit}`;
  const ok = value <= target;
  return `${value.toFixed(0)} ${unit} (target ≤ ${target}: ${ok ? 'met' : `missed by ${(value - target).toFixed(0)} ${unit}, ${((100 * (value - target)) / target).toFixed(0)}%`})`;
}

const dataDir = mkdtempSync(join(tmpdir(), 'cc-bench-'));
const extract = join(REPO_ROOT, 'data/monaco/monaco-region-2016.osm.pbf');
const t0 = performance.now();
const stats = await importOsm(extract, storePaths(dataDir).osm, {});
const importS = (performance.now() - t0) / 1000;
console.log(`import monaco-region-2016: ${importS.toFixed(1)} s (target ≤ 30 s: ${importS <= 30 ? 'met' : 'missed'}) ${JSON.stringify(stats)}`);

const port = 18000 + Math.floor(Math.random() * 2000);
const child = spawn(process.execPath, ['--import', 'tsx', join(REPO_ROOT, 'src/main.ts')], {
  env: { ...process.env, CITY_DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', CITY_OSM_EXTRACT: extract },
  stdio: ['ignore', 'pipe', 'inherit'],
});
const base = `http://127.0.0.1:${port}`;
let ready = false;
for (let i = 0; i < 600 && !ready; i++) {
  try { ready = (await request(`${base}/healthz`)).statusCode === 200; } catch { await new Promise((r) => setTimeout(r, 100)); }
}
const key = readFileSync(storePaths(dataDir).demoKey, 'utf8').trim();
const peakRssMb = () => {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
};

async function timed(c: Case, gzip: boolean) {
  const start = performance.now();
  const res = await request(`${base}/v1/context`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...(gzip ? { 'accept-encoding': 'gzip' } : {}) },
    body: JSON.stringify({ polygon: square(c.centre[0], c.centre[1], c.side), settings: c.settings }),
  });
  let firstByte = 0, bytes = 0;
  for await (const chunk of res.body) {
    if (!firstByte) firstByte = performance.now() - start;
    bytes += (chunk as Buffer).length;
  }
  if (res.statusCode !== 200) throw new Error(`HTTP ${res.statusCode}`);
  return { firstByte, total: performance.now() - start, bytes };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
await timed(CASES[0], false); // warm the workers
for (const c of CASES) {
  for (const gzip of [false, true]) {
    const runs = [];
    for (let i = 0; i < RUNS; i++) runs.push(await timed(c, gzip));
    console.log(`${c.name}${gzip ? ' (gzip)' : ''}: first byte ${verdict(median(runs.map((r) => r.firstByte)), c.targets.firstByteMs, 'ms')}, ` +
      `total ${verdict(median(runs.map((r) => r.total)), c.targets.totalMs, 'ms')}, size ${runs[0].bytes >= 1e6 ? `${(runs[0].bytes / 1e6).toFixed(1)} MB` : `${(runs[0].bytes / 1e3).toFixed(1)} kB`}`);
  }
}
const rss = peakRssMb();
console.log(`server peak RSS: ${rss.toFixed(0)} MB (target ≤ 1024 MB: ${rss <= 1024 ? 'met' : 'missed'})`);
child.kill('SIGTERM');
if (process.env.BENCH_SKIP_ROOFS !== '1') await benchBuildings(dataDir);
