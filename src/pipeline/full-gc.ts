import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

type Gc = (options?: { type: 'major' | 'minor'; execution: 'sync' | 'async' }) => void;
let gc: Gc | null = null;

/**
 * Starts a full (major) garbage collection of the calling thread's heap, which V8 finishes on its
 * own, incrementally, within moments: what the thread no longer holds goes back to the system
 * instead of waiting for allocation to trigger a collection that may never come while the thread
 * idles. Run after the start-up warm-up, when the tile pool falls idle, and in the export thread
 * after each export (src/service.ts, src/pipeline/tile-scheduler.ts, workers/export-worker.ts).
 *
 * Asynchronous on purpose: a synchronous forced `gc()` also threw away V8's optimised code and
 * type feedback — the next default request on the dense city then cost 3.4–4.1 CPU-s instead of
 * 1.9–2.1 (measured) — while the asynchronous collection frees the same old-generation garbage
 * (468 → 190 MB RSS on a test heap) with no such cost. `--expose-gc` cannot be given to worker
 * threads (V8 flags are process-wide), so it is set here; a new context then carries `gc`.
 */
export function startFullGc(): void {
  if (!gc) {
    setFlagsFromString('--expose-gc');
    gc = runInNewContext('gc') as Gc;
  }
  gc({ type: 'major', execution: 'async' });
}
