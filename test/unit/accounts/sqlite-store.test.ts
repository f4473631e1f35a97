/** The account store contract (test/support/accounts/account-store-suite.ts) on SQLite files. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';
import { SqliteAccountStore } from '../../../src/accounts/index.ts';
import { accountStoreSuite } from '../../support/accounts/account-store-suite.ts';

const dirs: string[] = [];
after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

accountStoreSuite('sqlite', {
  async fresh() {
    const dir = mkdtempSync(join(tmpdir(), 'cc-ledger-'));
    dirs.push(dir);
    return join(dir, 'accounts.sqlite');
  },
  open: (path, options) => SqliteAccountStore.open(path, options),
});
