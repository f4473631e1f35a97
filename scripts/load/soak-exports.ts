/**
 * The export-load mix of `npm run soak`: big exports run back to back (about 2 km² of Monaco
 * each, every default group, GLB) while one client times small requests (0.1 km²) one after the
 * other. Admission keeps slots for small requests (src/server/admission.ts): the small requests'
 * p99 is what this reports, against the same requests timed alone just before.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { request } from 'undici';
import { square } from '../../test/support/polygons.ts';
import { quantile } from './soak-clients.ts';

export interface ExportMixReport {
  seconds: number;
  exportClients: number;
  /** Small requests timed alone, before the exports start, ms. */
  smallAloneMs: { p50: number; p99: number };
  /** Small requests while the exports run: 200s timed, 503s and anything else counted. */
  smallMs: { count: number; p50: number; p99: number; max: number };
  smallBusy: number;
  exports: { served: number; busy: number; p50Ms: number };
  other: Record<string, number>;
}

const BIG_EXPORT = JSON.stringify({ polygon: square(43.7335, 7.4195, 1400), export: { format: 'glb' } });
/** About 0.1 km². */
const SMALL = JSON.stringify({ polygon: square(43.7335, 7.4195, 316), settings: { geometry: ['buildings', 'barriers'] } });

export async function exportLoadMix(base: string, key: string, seconds: number, exportClients = 3): Promise<ExportMixReport> {
  const other: Record<string, number> = {};
  const note = (what: string) => {
    other[what] = (other[what] ?? 0) + 1;
  };
  const alone: number[] = [];
  for (let i = 0; i < 13; i++) {
    const r = await post(base, key, SMALL);
    if (i >= 3 && r.status === 200) alone.push(r.ms); // the first three warm up
  }
  const until = Date.now() + seconds * 1000;
  const exportMs: number[] = [];
  let exportBusy = 0;
  const exporter = async () => {
    while (Date.now() < until) {
      const r = await post(base, key, BIG_EXPORT).catch((err: Error) => ({ status: err.message, ms: 0 }));
      if (r.status === 200) exportMs.push(r.ms);
      else if (r.status === 503) {
        exportBusy++;
        await delay(1000);
      } else note(`export ${r.status}`);
    }
  };
  const small: number[] = [];
  let smallBusy = 0;
  const timer = async () => {
    await delay(2000); // the exports are under way
    while (Date.now() < until) {
      const r = await post(base, key, SMALL).catch((err: Error) => ({ status: err.message, ms: 0 }));
      if (r.status === 200) small.push(r.ms);
      else if (r.status === 503) smallBusy++;
      else note(`small ${r.status}`);
      await delay(100);
    }
  };
  await Promise.all([...Array.from({ length: exportClients }, exporter), timer()]);
  return {
    seconds,
    exportClients,
    smallAloneMs: { p50: quantile(alone, 0.5), p99: quantile(alone, 0.99) },
    smallMs: { count: small.length, p50: quantile(small, 0.5), p99: quantile(small, 0.99), max: Math.max(...small) },
    smallBusy,
    exports: { served: exportMs.length, busy: exportBusy, p50Ms: quantile(exportMs, 0.5) },
    other,
  };
}

async function post(base: string, key: string, body: string): Promise<{ status: number | string; ms: number }> {
  const start = performance.now();
  const res = await request(`${base}/v1/context`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body,
  });
  await res.body.text();
  return { status: res.statusCode, ms: performance.now() - start };
}
