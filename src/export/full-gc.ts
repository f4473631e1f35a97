import { setFlagsFromString } from 'node:v8';

type Gc = (options?: { type: 'major' | 'minor'; execution: 'sync' | 'async' }) => void;

let exposed = false;

/**
 * Makes `gc` a global of every thread started from now on (src/export/export-pool.ts calls it
 * before its threads start). `--expose-gc` cannot be given to one worker thread (V8 flags are
 * process-wide), and set later it only reaches new contexts: the export thread used to build one
 * (`vm.runInNewContext('gc')`) after its first export, and a pool destroyed while that context was
 * being built (the command line stops its pool right after the file) made V8 print "Exception
 * thrown during bootstrapping" and the vm module's source on stdout. A thread whose isolate is
 * created after the flag has `gc` from its start, and terminating it is then harmless.
 */
export function exposeGcToNewThreads(): void {
  if (exposed) return;
  setFlagsFromString('--expose-gc');
  exposed = true;
}

/**
 * Starts a full (major) garbage collection of the calling thread's heap, which V8 finishes on its
 * own, incrementally, within moments. The export thread runs it after each export
 * (workers/export-worker.ts): its heap is small and idle, so nothing else would collect what the
 * export left (the parse garbage) before the next export. A thread started before
 * {@link exposeGcToNewThreads} has no `gc` and skips it (it only lowers the next export's peak).
 *
 * Asynchronous on purpose: a synchronous forced `gc()` also threw away V8's optimised code and
 * type feedback — tried after the start-up warm-up and when the tile pool fell idle, the next
 * default request on the dense city then cost 3.4–4.1 CPU-s instead of 1.9–2.1 (measured), and
 * neither place gave memory back measurably with the asynchronous kind, so they were dropped.
 */
export function startFullGc(): void {
  const gc = (globalThis as { gc?: Gc }).gc;
  if (typeof gc === 'function') gc({ type: 'major', execution: 'async' });
}
