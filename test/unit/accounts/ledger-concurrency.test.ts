/**
 * Two processes on one accounts file, reserving and settling at the same time: the conditional
 * UPDATE under an IMMEDIATE transaction must keep them from overspending together.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import { after, it } from 'node:test';
import { SqliteAccountStore } from '../../../src/accounts/index.ts';

const dir = mkdtempSync(join(tmpdir(), 'cc-concurrency-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const storeModule = fileURLToPath(new URL('../../../src/accounts/index.ts', import.meta.url));

/** The child: wait for "go", then reserve 1 km² ATTEMPTS times, releasing every 5th and committing the rest. */
const CHILD = `
import { SqliteAccountStore } from ${JSON.stringify(storeModule)};
import { createInterface } from 'node:readline';
const [path, key, attempts] = process.argv.slice(-3);
const store = await SqliteAccountStore.open(path, { releaseStale: false });
const auth = (await store.authenticate(key));
console.log('ready');
await new Promise((go) => createInterface({ input: process.stdin }).once('line', go));
let committed = 0, released = 0, refused = 0;
for (let i = 0; i < Number(attempts); i++) {
  let r;
  try { r = (await store.reserve(auth, 1)); } catch (err) {
    if (err.code !== 'insufficient_balance') throw err;
    refused++; continue;
  }
  if (i % 5 === 4) { (await r.release('aborted')); released++; } else { (await r.commit()); committed++; }
}
await store.close();
console.log(JSON.stringify({ committed, released, refused }));
process.exit(0);
`;

interface ChildResult {
  committed: number;
  released: number;
  refused: number;
}

function startChild(path: string, key: string, attempts: number) {
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', CHILD, '--', path, key, String(attempts)], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  const exited = new Promise<number | null>((done) => child.on('exit', done));
  return {
    ready: lines.next().then((l) => assert.equal(l.value, 'ready')),
    go: () => child.stdin!.end('go\n'),
    result: (async () => {
      const line = await lines.next();
      assert.equal(await exited, 0);
      return JSON.parse(String(line.value)) as ChildResult;
    })(),
  };
}

it('two processes sharing the file never spend more than the balance together', async () => {
  const path = join(dir, 'accounts.sqlite');
  const balance = 200;
  const attempts = 300; // 600 attempts for 200 km²: both run out while the other still competes
  const setup = await SqliteAccountStore.open(path);
  const account = await setup.createAccount({ name: 'shared', balanceKm2: balance });
  const key = (await setup.createKey(account.id)).key;
  await setup.close();

  const children = [startChild(path, key, attempts), startChild(path, key, attempts)];
  await Promise.all(children.map((c) => c.ready));
  children.forEach((c) => c.go());
  const results = await Promise.all(children.map((c) => c.result));

  const committed = results.reduce((s, r) => s + r.committed, 0);
  const released = results.reduce((s, r) => s + r.released, 0);
  const store = await SqliteAccountStore.open(path);
  const final = (await store.getAccount(account.id))!;
  const rows = await store.usage(account.id, { limit: 10_000 });
  await store.close();

  assert.ok(committed <= balance, `overspent: ${committed} km² committed of ${balance}`);
  assert.deepEqual([final.balanceKm2, final.reservedKm2], [balance - committed, 0]);
  assert.equal(rows.filter((r) => r.status === 'completed').length, committed);
  assert.equal(rows.filter((r) => r.status === 'aborted').length, released);
  assert.equal(rows.length, committed + released);
  // At most the last few km² can be stranded by the other process's holds at the very end.
  assert.ok(final.balanceKm2 <= 2, `balance left unspent: ${final.balanceKm2}`);
  assert.ok(
    results.every((r) => r.refused > 0),
    'both processes ran into the limit',
  );
});
