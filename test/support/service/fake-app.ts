/**
 * The HTTP app on loopback with a stand-in worker pool (no OSM store, no threads), for the
 * hardening tests: each tile answers with `itemsPerTile` small buildings after `delayMs`.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { setTimeout as delay } from 'node:timers/promises';
import type { Piscina } from 'piscina';
import type { AccountStore, AccountStoreOptions } from '../../../src/accounts/index.ts';
import { openTestAccounts, testDatabaseUrl } from '../accounts/test-database.ts';
import { Admission } from '../../../src/server/admission.ts';
import { createApp } from '../../../src/server/app.ts';
import type { HttpLimits } from '../../../src/server/http-limits.ts';
import type { CorsPolicy } from '../../../src/server/cors.ts';
import type { TrustedProxies } from '../../../src/server/trusted-proxies.ts';
import type { TileTask } from '../../../src/plan/plan-request.ts';

export interface FakeAppOptions {
  itemsPerTile?: number;
  delayMs?: number;
  admission?: Admission;
  limits?: Partial<HttpLimits>;
  maxBodyBytes?: number;
  /** Accounts file or database URL (default: a new file in a scratch folder, or a new database on PostgreSQL runs). */
  accountsPath?: string;
  /** How the app's accounts store is opened (lease, stale sweep). */
  accounts?: AccountStoreOptions;
  /** Tiles run at once, as the pool's worker threads (default: no limit). */
  threads?: number;
  /** Called as each tile starts. */
  onTile?: () => void;
  /** Reverse proxies in front, and the browser origins allowed. */
  trustedProxies?: TrustedProxies;
  cors?: CorsPolicy;
}

export interface FakeApp {
  url: string;
  port: number;
  accounts: AccountStore;
  /** Where the accounts are: an SQLite file or a postgres:// URL (open a second store with openTestAccounts). */
  accountsPath: string;
  server: Server;
  log: string[];
  newKey(balanceKm2: number): Promise<{ accountId: number; key: string }>;
  close(): Promise<void>;
}

/** One building-like item of about 100 bytes. */
const ITEM = JSON.stringify({ type: 'mesh', vertices: [0, 0, 0, 1, 0, 0, 0, 1, 0], descriptor: { type: 'building', id: 'way/1' } });

export async function startFakeApp(options: FakeAppOptions = {}): Promise<FakeApp> {
  const accountsPath = options.accountsPath ?? (await testDatabaseUrl()) ?? join(mkdtempSync(join(tmpdir(), 'cc-hard-')), 'accounts.sqlite');
  const accounts = await openTestAccounts(accountsPath, options.accounts);
  const items = options.itemsPerTile ?? 10;
  const json = Buffer.from(Array.from({ length: items }, () => ITEM).join(','));
  const run = async (task: TileTask, { signal }: { signal: AbortSignal }) => {
    options.onTile?.();
    if (options.delayMs) await delay(options.delayMs, undefined, { signal });
    return { key: task.key, groups: { buildings: { json, count: items } }, attributions: [], timings: {} };
  };
  const log: string[] = [];
  const server = createApp({
    accounts,
    admission: options.admission ?? new Admission({ maxInFlight: 4, maxQueue: 8, timeoutMs: 10_000 }),
    pipeline: { pool: { run, options: { maxThreads: options.threads } } as unknown as Piscina, storePath: '/nonexistent', tileSize: 500 },
    maxBodyBytes: options.maxBodyBytes ?? 1 << 20,
    gzipLevel: 1,
    limits: options.limits,
    trustedProxies: options.trustedProxies,
    cors: options.cors,
    log: (line) => log.push(line),
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    accounts,
    accountsPath,
    server,
    log,
    async newKey(balanceKm2) {
      const account = await accounts.createAccount({ name: `h${Math.random()}`, balanceKm2 });
      return { accountId: account.id, key: (await accounts.createKey(account.id, 'production')).key };
    },
    close: () =>
      new Promise<void>((r) => {
        server.close(() => {
          void accounts.close().then(r, r);
        });
        server.closeAllConnections();
      }),
  };
}

/** A small valid body (a ~200 m square in Monaco, buildings only: one 500 m tile). */
export function smallBody(extra: Record<string, unknown> = {}, d = 0.001): Record<string, unknown> {
  const [lat, lon] = [43.735, 7.419];
  return {
    polygon: [
      [lat, lon],
      [lat, lon + d],
      [lat + d, lon + d],
      [lat + d, lon],
      [lat, lon],
    ],
    settings: { geometry: ['buildings'] },
    ...extra,
  };
}
