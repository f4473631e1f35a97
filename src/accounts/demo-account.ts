/**
 * First start of a fresh install: make a "demo" account with a development key, entitled to the
 * bundled premium samples, so the service can be tried at once. The key is written to `<dataDir>/demo-key.txt` (mode 0600) and returned so the
 * caller can print it once; nothing happens (and the file is never rewritten) once any account exists.
 */
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BUNDLED_PREMIUM_SOURCES } from '../sources/premium/config.ts';
import type { AccountStore } from './account-store.ts';

export interface DemoAccountOptions {
  /** Starting balance of the demo account, km². */
  balanceKm2?: number;
  /** Account name. */
  name?: string;
  /** Premium dataset ids the demo account is entitled to. */
  premiumDatasets?: readonly string[];
}

const DEFAULTS: Required<DemoAccountOptions> = { balanceKm2: 1000, name: 'demo', premiumDatasets: BUNDLED_PREMIUM_SOURCES.map((s) => s.id) };

export interface DemoAccount {
  accountId: number;
  keyId: number;
  /** The plain development key. */
  key: string;
  /** Where the key was written. */
  keyFile: string;
}

export const DEMO_KEY_FILE = 'demo-key.txt';

export async function ensureDemoAccount(store: AccountStore, dataDir: string, options: DemoAccountOptions = {}): Promise<DemoAccount | null> {
  const { balanceKm2, name, premiumDatasets } = { ...DEFAULTS, ...options };
  // Checked and created atomically: two processes starting together make one demo account.
  const grants = premiumDatasets.map((value) => ({ kind: 'dataset' as const, value }));
  const created = await store.createFirstAccount({ name, balanceKm2, active: true }, 'development', grants);
  if (!created) return null;
  mkdirSync(dataDir, { recursive: true });
  const keyFile = join(dataDir, DEMO_KEY_FILE);
  // A file left from an older database holds a dead key: replace it. chmod covers a pre-existing file,
  // whose mode `writeFileSync` would otherwise keep.
  writeFileSync(keyFile, `${created.key}\n`, { mode: 0o600 });
  chmodSync(keyFile, 0o600);
  return { accountId: created.accountId, keyId: created.keyId, key: created.key, keyFile };
}
