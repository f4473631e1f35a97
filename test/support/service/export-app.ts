/**
 * The app of the export e2e tests: the real service (worker pool, accounts) behind a second
 * server whose exports go to a store the test reads, plus the known building they check.
 */
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { storePaths } from '../../../src/config.ts';
import { Admission } from '../../../src/server/admission.ts';
import { createApp } from '../../../src/server/app.ts';
import type { ExportDeps } from '../../../src/server/export-handler.ts';
import type { RunningService } from '../../../src/service.ts';
import { startTestService } from './http.ts';
import { square } from '../polygons.ts';

/** way/94252406 (Rue de la Turbie 17, 4 levels, flat) and its first node, straight from the Monaco extract. */
export const BUILDING = 'way/94252406';
export const CORNER = { lon: 7.4182484, lat: 43.7336199 };
export const ORIGIN: [number, number] = [43.734, 7.42];
export const POLYGON = square(43.7336, 7.4183, 160);

export interface ExportApp {
  svc: RunningService;
  /** Base URL of the app with the test's export store. */
  url: string;
  close(): Promise<void>;
}

export async function startExportApp(exports: ExportDeps, log: (line: string) => void = () => {}): Promise<ExportApp> {
  const svc = await startTestService();
  const server: Server = createApp({
    accounts: svc.accounts,
    admission: new Admission({ maxInFlight: 4, maxQueue: 16, timeoutMs: 30_000 }),
    pipeline: { pool: svc.pool, exportPool: svc.exportPool, storePath: storePaths(svc.config.dataDir).osm, tileSize: svc.config.tileSize, dem: svc.config.dem },
    exports,
    maxBodyBytes: 1 << 20,
    gzipLevel: 1,
    log,
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    svc,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      await new Promise<void>((r) => { server.close(() => r()); server.closeAllConnections(); });
      await svc.close();
    },
  };
}
