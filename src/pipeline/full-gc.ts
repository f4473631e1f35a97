import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let gc: (() => void) | null = null;

/**
 * A full, compacting garbage collection of the calling thread's heap. Run once after the start-up
 * warm-up (src/service.ts), while nothing waits: the warm-up leaves every thread's old generation
 * full of its garbage, and without this the first real request paid for collecting it (a major
 * GC in each worker in the middle of its tiles). `--expose-gc` cannot be given to worker threads
 * (V8 flags are process-wide), so it is set here; a new context then carries `gc`.
 */
export function collectAllGarbage(): void {
  if (!gc) {
    setFlagsFromString('--expose-gc');
    gc = runInNewContext('gc') as () => void;
  }
  gc();
}
