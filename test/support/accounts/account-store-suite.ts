/**
 * What every account store must do, whatever holds it: reserve / commit / release and what is
 * charged or refused (ledger-suite.ts), a property that no sequence of operations over two
 * connections overspends, request ids and racing holders (concurrency-suite.ts), API keys
 * (keys-suite.ts), premium entitlements (entitlements-suite.ts). Each store's test file runs it: test/unit/accounts/sqlite-store.test.ts and
 * postgres-store.test.ts.
 */
import assert from 'node:assert/strict';
import { ApiError } from '../../../src/contract/errors.ts';
import type { AccountStore, AccountStoreOptions } from '../../../src/accounts/index.ts';
import { concurrencySuite } from './concurrency-suite.ts';
import { entitlementsSuite } from './entitlements-suite.ts';
import { keysSuite } from './keys-suite.ts';
import { ledgerSuite } from './ledger-suite.ts';

/** One store implementation under test. */
export interface AccountBackend {
  /** A new, empty location (a file path, a database URL). */
  fresh(): Promise<string>;
  open(location: string, options?: AccountStoreOptions): Promise<AccountStore>;
  /** Runs of the no-overspend property (each opens nothing new, but a networked store pays per round trip). */
  propertyRuns?: number;
}

/** What the parts of the suite share: the backend and a few helpers over it. */
export type SuiteKit = ReturnType<typeof suiteKit>;

export function accountStoreSuite(label: string, backend: AccountBackend): void {
  const kit = suiteKit(backend);
  ledgerSuite(label, kit);
  concurrencySuite(label, kit);
  keysSuite(label, kit);
  entitlementsSuite(label, kit);
}

function suiteKit(backend: AccountBackend) {
  const tempPath = () => backend.fresh();
  const open = (location: string, options?: AccountStoreOptions) => backend.open(location, options);

  async function setup(balanceKm2: number, active = true, location?: string) {
    const path = location ?? (await tempPath());
    const store = await open(path);
    const account = await store.createAccount({ name: 'acme', balanceKm2, active });
    const { key } = await store.createKey(account.id);
    return { store, path, account, auth: await store.authenticate(`Bearer ${key}`) };
  }

  async function tempStore(options: AccountStoreOptions = {}) {
    const path = await tempPath();
    return { store: await open(path, options), path };
  }

  async function rejectsWith(fn: () => Promise<unknown>, code: string): Promise<ApiError> {
    let caught: unknown;
    await assert.rejects(fn, (err: unknown) => ((caught = err), err instanceof ApiError && err.code === code));
    return caught as ApiError;
  }

  async function assertUnauthorized(fn: () => Promise<unknown>, message: RegExp): Promise<void> {
    await assert.rejects(fn, (err: unknown) => {
      assert.ok(err instanceof ApiError, `expected ApiError, got ${String(err)}`);
      assert.equal(err.code, 'unauthorized');
      assert.equal(err.status, 401);
      assert.match(err.message, message);
      return true;
    });
  }

  return { backend, tempPath, open, setup, tempStore, rejectsWith, assertUnauthorized };
}
