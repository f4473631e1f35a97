/**
 * Must be the first import of a worker entry. geotiff pulls in the `web-worker` package, which —
 * when loaded in any non-main thread without a global `Worker` — assumes it *is* one of its own
 * workers and takes the thread over. We never ask geotiff for a decoder pool (tiles decode in the
 * piscina worker itself), so a global that refuses to be constructed is all it needs to see.
 */
if (typeof (globalThis as { Worker?: unknown }).Worker !== 'function') {
  (globalThis as { Worker?: unknown }).Worker = class NoNestedWorkers {
    constructor() {
      throw new Error('nested web workers are not used in tile workers');
    }
  };
}
export {};
