/**
 * The app of the export e2e tests: the real service (worker pool, accounts) behind a second
 * server whose exports go to a store the test reads, plus the known building they check.
 */
import type { AddressInfo } from 'node:net';
import proj4 from 'proj4';
import type { Server } from 'node:http';
import { storePaths } from '../../../src/config.ts';
import { lookupEpsg } from '../../../src/frame/epsg.ts';
import { localFrameDefinition } from '../../../src/frame/local-frame.ts';
import { Admission } from '../../../src/server/admission.ts';
import { createApp, type AppDeps } from '../../../src/server/app.ts';
import type { ExportDeps } from '../../../src/server/export-handler.ts';
import type { ServiceConfig } from '../../../src/config.ts';
import type { RunningService } from '../../../src/service.ts';
import { startTestService } from './http.ts';
import { square } from '../polygons.ts';

/** way/94252406 (Rue de la Turbie 17, 4 levels, flat) and its first node, straight from the Monaco extract. */
export const BUILDING = 'way/94252406';
export const CORNER = { lon: 7.4182484, lat: 43.7336199 };
export const ORIGIN: [number, number] = [43.734, 7.42];
export const POLYGON = square(43.7336, 7.4183, 160);

/** Where proj4 puts CORNER in `crs` (`local`: the local frame at ORIGIN; else `EPSG:n`): [east, north] in the CRS's units. */
export function cornerIn(crs: string): [number, number] {
  const def = crs === 'local' ? localFrameDefinition(ORIGIN[0], ORIGIN[1]) : lookupEpsg(Number(crs.slice(5)))!.proj4;
  return proj4(def, [CORNER.lon, CORNER.lat]) as [number, number];
}

export interface ExportApp {
  svc: RunningService;
  /** Base URL of the app with the test's export store. */
  url: string;
  /** The app's HTTP server (to watch its connections). */
  server: Server;
  close(): Promise<void>;
}

export async function startExportApp(exports: ExportDeps, log: (line: string) => void = () => {}, config: Partial<ServiceConfig> = {}): Promise<ExportApp> {
  const svc = await startTestService(config);
  const app = await startAppOn(svc, exports, log);
  return {
    svc,
    url: app.url,
    server: app.server,
    async close() {
      await app.close();
      await svc.close();
    },
  };
}

/** Another app on `svc`'s pool and accounts, with `exports` and any other app settings (trusted proxies, CORS). */
export async function startAppOn(
  svc: RunningService,
  exports: ExportDeps,
  log: (line: string) => void = () => {},
  extra: Partial<AppDeps> = {},
): Promise<{ url: string; server: Server; close(): Promise<void> }> {
  const server: Server = createApp({
    accounts: svc.accounts,
    admission: new Admission({ maxInFlight: 4, maxQueue: 16, timeoutMs: 30_000 }),
    pipeline: { pool: svc.pool, exportPool: svc.exportPool, storePath: storePaths(svc.config.dataDir).osm, tileSize: svc.config.tileSize, dem: svc.config.dem },
    exports,
    maxBodyBytes: 1 << 20,
    gzipLevel: 1,
    log,
    ...extra,
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    server,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  };
}
