import type { ExportStoreConfig } from './config.ts';
import { tmpdir } from 'node:os';
import { LocalExportStore } from './local.ts';
import { exportStagingDir, setExportStagingDir, sweepStaged } from './staged.ts';
import type { ExportStore } from './types.ts';

/**
 * Opens the configured export store, sweeps what expired while the service was down, and sweeps
 * again every `sweepIntervalMs` (an unref'd timer: it never keeps the process alive). `close()`
 * stops the timer. Export threads stage their files in the local store's directory (a rename
 * moves them in) or, for S3, in the OS temp directory (uploaded from there; what an aborted
 * export left there goes with the sweep, as the local store's own sweep does): ./staged.ts.
 */
export async function openExportStore(config: ExportStoreConfig, log: (line: string) => void): Promise<ExportStore> {
  const options = { ttlMs: config.ttlMs, maxBytes: config.maxBytes, accountMaxBytes: config.accountMaxBytes };
  // The AWS SDK is loaded only when S3 is configured: it is large and warns on Node 20.
  const store: ExportStore =
    config.kind === 's3'
      ? await new (await import('./s3.ts')).S3ExportStore({ ...config.s3!, ...options }).open()
      : await new LocalExportStore({ dir: config.dir, minFreeBytes: config.minFreeBytes, ...options }).open();
  const staging = config.kind === 's3' ? tmpdir() : config.dir;
  setExportStagingDir(staging);
  const sweep = async (now?: number) => (await store.sweep(now)) + (config.kind === 's3' ? await sweepStaged(staging, now) : 0);
  const swept = await sweep();
  if (swept > 0) log(`Export store: removed ${swept} expired or left-over file(s) at start.`);
  // The service still answers JSON without a usable store: say so loudly, and every export gets the 507 that explains it.
  await store.checkRoom().catch((err: Error) => log(`WARNING: exports will be refused until this is fixed: ${err.message}`));
  const timer = setInterval(() => {
    sweep().then(
      (n) => {
        if (n > 0) log(`Export store: removed ${n} expired or left-over file(s).`);
      },
      (err: Error) => log(`Export store sweep failed: ${err.message}`),
    );
  }, config.sweepIntervalMs);
  timer.unref();
  return {
    put: (name, bytes, contentType, owner) => store.put(name, bytes, contentType, owner),
    checkRoom: (owner) => store.checkRoom(owner),
    makeRoom: async (owner) => (await store.makeRoom(owner)) + (config.kind === 's3' ? await sweepStaged(staging) : 0),
    head: (token, name) => store.head(token, name),
    read: (token, name, range) => store.read(token, name, range),
    sweep,
    async close() {
      clearInterval(timer);
      if (exportStagingDir() === staging) setExportStagingDir(null);
      await store.close();
    },
  };
}
