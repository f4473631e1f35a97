/**
 * The export writers' own thread pool.
 *
 * Why apart from the tile workers: writers load a lot of code of their own and fill large buffers
 * outside the JavaScript heap, and a writer's thread keeps what its malloc arena once held. In a
 * tile worker that memory would stay for the life of the process, in every worker that ever wrote a
 * file; here the export threads start on demand and exit after `idleTimeoutMs` without work,
 * handing it all back to the OS, and tile workers never load writer code. The price is a thread
 * start (~0.1–0.3 s: compile the writer code again) for the first export after an idle period.
 */
import { Piscina } from 'piscina';
import { MODULE_EXT } from '../module-ext.ts';
import { exposeGcToNewThreads } from './full-gc.ts';

export interface ExportPoolConfig {
  /** Exports written at once (each in its own thread); more wait in the pool's queue. */
  threads: number;
  /** A thread without work for this long exits, ms. */
  idleTimeoutMs: number;
}

export const EXPORT_POOL_DEFAULTS: ExportPoolConfig = { threads: 1, idleTimeoutMs: 15_000 };

/** CITY_EXPORT_THREADS, CITY_EXPORT_IDLE_MS. */
export function exportPoolConfigFromEnv(env: NodeJS.ProcessEnv): ExportPoolConfig {
  const num = (v: string | undefined, fallback: number, name: string): number => {
    if (v === undefined || v === '') return fallback;
    const n = Number(v);
    if (!Number.isFinite(n) || n < 0) throw new Error(`${name} must be a non-negative number, got ${v}`);
    return Math.floor(n);
  };
  return {
    threads: Math.max(1, num(env.CITY_EXPORT_THREADS, EXPORT_POOL_DEFAULTS.threads, 'CITY_EXPORT_THREADS')),
    idleTimeoutMs: num(env.CITY_EXPORT_IDLE_MS, EXPORT_POOL_DEFAULTS.idleTimeoutMs, 'CITY_EXPORT_IDLE_MS'),
  };
}

export function createExportPool(config: ExportPoolConfig): Piscina {
  // before any thread starts: each then has `gc` from its start (./full-gc.ts), so the pool may be
  // destroyed at any moment, also while a thread runs its after-export collection
  exposeGcToNewThreads();
  return new Piscina({
    filename: new URL(`../../workers/export-worker${MODULE_EXT}`, import.meta.url).href,
    minThreads: 0,
    maxThreads: config.threads,
    idleTimeout: config.idleTimeoutMs,
    // Between tasks piscina's default parks the thread in Atomics.wait: no timer or GC task ran
    // until the next export came, so the collection after an export (workers/export-worker.ts)
    // never ran while the thread idled. Waiting on the event loop costs nothing an export notices.
    atomics: 'disabled',
  });
}
