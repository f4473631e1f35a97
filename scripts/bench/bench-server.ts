/**
 * One request to the service running as a separate process (test/support/service/compiled-server.ts),
 * timed over loopback with what it cost the server (CPU-seconds of all its threads and peak
 * resident memory during the request, both from /proc). Also the small formatting helpers the
 * bench prints with.
 */
import { request } from 'undici';
import type { CompiledServer } from '../../test/support/service/compiled-server.ts';
import { square } from '../../test/support/polygons.ts';
import { cpuSeconds, resetPeakRss, vmKb } from '../../test/support/service/proc.ts';
import { median } from './lib/timing.ts';

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
export async function measure(server: CompiledServer, body: unknown, gzip = false): Promise<Measured> {
  server.notePeak();
  const reset = resetPeakRss(server.pid);
  const cpu0 = cpuSeconds(server.pid);
  const start = performance.now();
  const res = await request(`${server.base}/v1/context`, {
    method: 'POST',
    headers: { authorization: `Bearer ${server.key}`, 'content-type': 'application/json', ...(gzip ? { 'accept-encoding': 'gzip' } : {}) },
    body: JSON.stringify(body),
  });
  let firstByteMs = 0,
    bytes = 0;
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
  return {
    firstByteMs: median(runs.map((r) => r.firstByteMs)),
    totalMs: median(runs.map((r) => r.totalMs)),
    bytes: median(runs.map((r) => r.bytes)),
    cpuS: median(runs.map((r) => r.cpuS)),
    peakRssMb: median(runs.map((r) => r.peakRssMb)),
    peakIsLifetime: runs.some((r) => r.peakIsLifetime),
  };
}

/** One untimed request to warm the server, then the medians of `runs` timed ones. */
export async function warmMedian(server: CompiledServer, body: unknown, runs: number): Promise<Measured> {
  await measure(server, body);
  const out: Measured[] = [];
  for (let i = 0; i < runs; i++) out.push(await measure(server, body));
  return medianOf(out);
}

/**
 * A group's ~10 km² square requested alone (flat) and with `projectToTopography` (on the terrain),
 * each timed warm, printed with the server's CPU-seconds and peak RSS (barriers, instances).
 */
export async function benchGroupAloneAndOnTerrain(
  label: string,
  server: CompiledServer,
  c: { centre: [number, number]; side: number },
  runs: number,
  group: string,
  title: string,
): Promise<void> {
  const polygon = square(c.centre[0], c.centre[1], c.side);
  const flat = await warmMedian(server, { polygon, settings: { geometry: [group] } }, runs);
  console.log(`${label} ~10 km² ${title} alone, warm (median of ${runs}): ${figures(flat)}`);
  const onTerrain = await warmMedian(server, { polygon, settings: { geometry: [group], projectToTopography: true } }, runs);
  console.log(`${label} ~10 km² ${title} on the terrain (projectToTopography), warm (median of ${runs}): ${figures(onTerrain)}`);
}

/** `value unit`, and beside it the target with met / missed by how much. */
export function verdict(value: number, target: number | undefined, unit: string, digits = 0): string {
  const shown = `${value.toFixed(digits)} ${unit}`;
  if (target === undefined) return shown;
  if (value <= target) return `${shown} (target ≤ ${target.toFixed(digits)}: met)`;
  return `${shown} (target ≤ ${target.toFixed(digits)}: missed by ${(value - target).toFixed(digits)} ${unit}, ${((100 * (value - target)) / target).toFixed(0)}%)`;
}

export const size = (bytes: number) => (bytes >= 1e6 ? `${(bytes / 1e6).toFixed(1)} MB` : `${(bytes / 1e3).toFixed(1)} kB`);

export interface Targets {
  firstByteMs?: number;
  totalMs?: number;
  cpuS?: number;
  peakRssMb?: number;
}

/** One line of figures, each beside its target when it has one. */
export function figures(m: Measured, t: Targets = {}): string {
  return (
    `first byte ${verdict(m.firstByteMs, t.firstByteMs, 'ms')}, total ${verdict(m.totalMs, t.totalMs, 'ms')}, ${size(m.bytes)}, ` +
    `server CPU ${verdict(m.cpuS, t.cpuS, 'CPU-s', 2)}, server peak RSS${m.peakIsLifetime ? ' (lifetime)' : ''} ${verdict(m.peakRssMb, t.peakRssMb, 'MB')}`
  );
}
