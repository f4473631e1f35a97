import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

type Gc = (options?: { type: 'major' | 'minor'; execution: 'sync' | 'async' }) => void;
let gc: Gc | null = null;

/**
 * Starts a full (major) garbage collection of the calling thread's heap, which V8 finishes on its
 * own, incrementally, within moments. The export thread runs it after each export
 * (workers/export-worker.ts): its heap is small and idle, so nothing else would collect what the
 * export left (the parse garbage) before the next export.
 *
 * Asynchronous on purpose: a synchronous forced `gc()` also threw away V8's optimised code and
 * type feedback — tried after the start-up warm-up and when the tile pool fell idle, the next
 * default request on the dense city then cost 3.4–4.1 CPU-s instead of 1.9–2.1 (measured), and
 * neither place gave memory back measurably with the asynchronous kind, so they were dropped.
 * `--expose-gc` cannot be given to worker threads (V8 flags are process-wide), so it is set here;
 * a new context then carries `gc`.
 */
export function startFullGc(): void {
  if (!gc) {
    setFlagsFromString('--expose-gc');
    gc = runInNewContext('gc') as Gc;
  }
  gc({ type: 'major', execution: 'async' });
}
