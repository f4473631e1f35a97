/**
 * Starting and stopping the compiled service as an install runs it (docs/operations.md "Running"
 * and "Stopping"): a port already taken is one line on stderr and exit 1, before the service's
 * code is even loaded; SIGTERM stops accepting connections, lets a request in progress finish and
 * charges it, or — past CITY_SHUTDOWN_GRACE_MS — cuts it and releases its reservation; either way
 * the process exits 0 and holds nothing in the ledger.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { connect, createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { SqliteAccountStore } from '../../src/accounts/index.ts';
import { REPO_ROOT, storePaths } from '../../src/config.ts';
import { buildOnce, spawnServer, waitForStatus, type SpawnedServer } from '../support/service/compiled-server.ts';
import { square } from '../support/polygons.ts';

const EXTRACT = join(REPO_ROOT, 'data/monaco/monaco.osm.pbf');
const dataDir = mkdtempSync(join(tmpdir(), 'cc-stop-'));

test('a port already in use: one line on stderr naming the address, exit code 1, no stack trace', async () => {
  buildOnce();
  const taken = createServer();
  await new Promise<void>((r) => taken.listen(0, '127.0.0.1', r));
  const port = (taken.address() as AddressInfo).port;
  try {
    const child = spawn(process.execPath, [join(REPO_ROOT, 'dist/src/main.js')], {
      env: { ...process.env, CITY_DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d));
    child.stderr.on('data', (d: Buffer) => (err += d));
    const code = await new Promise<number | null>((r) => child.once('exit', r));
    assert.equal(code, 1);
    assert.equal(err.trim().split('\n').length, 1, err);
    assert.match(err, new RegExp(`127\\.0\\.0\\.1:${port} is already in use`));
    assert.doesNotMatch(err, /^\s+at /m);
    assert.equal(out, '', 'nothing loaded, nothing started');
  } finally {
    await taken.close();
  }
});

/** An account with a key and 50 km², in the service's own accounts file. */
async function newAccount(name: string): Promise<{ id: number; key: string }> {
  const accounts = await SqliteAccountStore.open(storePaths(dataDir).accounts, { releaseStale: false });
  try {
    const { id } = await accounts.createAccount({ name, balanceKm2: 50 });
    return { id, key: (await accounts.createKey(id, 'production')).key };
  } finally {
    await accounts.close();
  }
}

async function ledger(accountId: number) {
  const accounts = await SqliteAccountStore.open(storePaths(dataDir).accounts, { releaseStale: false, staleSweepMs: 0 });
  try {
    return { rows: await accounts.usage(accountId), account: (await accounts.getAccount(accountId))! };
  } finally {
    await accounts.close();
  }
}

/** Resolves once the account has a request holding its reservation (in progress). */
async function untilReserved(accountId: number, server: SpawnedServer): Promise<void> {
  while (!(await ledger(accountId)).rows.some((r) => r.status === 'reserved')) {
    assert.equal(server.child.exitCode, null, 'the service is still running');
    await new Promise((r) => setTimeout(r, 20));
  }
}

function refused(base: string): Promise<string> {
  const { port } = new URL(base);
  return new Promise((resolve) => {
    const socket = connect(Number(port), '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve('connected');
    });
    socket.once('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
  });
}

async function untilOutput(server: SpawnedServer, text: string): Promise<void> {
  while (!server.output().includes(text)) {
    if (server.child.exitCode !== null) assert.fail(`exited before printing "${text}": ${server.output()}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function sigterm(server: SpawnedServer): Promise<number | null> {
  const exit = new Promise<number | null>((r) => (server.child.exitCode !== null ? r(server.child.exitCode) : server.child.once('exit', (code) => r(code))));
  server.child.kill('SIGTERM');
  return exit;
}

/** A request of the default groups on 0.8 km² of Monaco: seconds of work on the test's one worker. */
const SLOW_BODY = JSON.stringify({ polygon: square(43.7365, 7.4215, 900) });

test('SIGTERM: no new connections, the request in progress finishes and is charged, exit 0, nothing left held', { timeout: 240_000 }, async () => {
  const server = await spawnServer(dataDir, EXTRACT, { CITY_WORKERS: '1', CITY_WARMUP_REQUESTS_MS: '0' }, { output: true });
  try {
    assert.ok(await waitForStatus(server, '/readyz', 200), 'ready');
    const { id, key } = await newAccount('graceful');
    const answer = request(`${server.base}/v1/context`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: SLOW_BODY,
    }).then(async (res) => ({ status: res.statusCode, text: await res.body.text() }));
    await untilReserved(id, server);
    const exited = sigterm(server);
    await untilOutput(server, 'Shutdown: waiting up to 25000 ms for 1 request(s) in progress.');
    assert.equal(await refused(server.base), 'ECONNREFUSED', 'a new connection is refused while the request finishes');
    const { status, text } = await answer;
    assert.equal(status, 200);
    const model = JSON.parse(text);
    assert.ok(model.geometry.find((g: { type: string }) => g.type === 'buildings').meshes.length > 100);
    assert.equal(await exited, 0);
    const { rows, account } = await ledger(id);
    assert.deepEqual(
      rows.map((r) => r.status),
      ['completed'],
    );
    assert.ok(rows[0].costKm2 > 0.5);
    assert.equal(account.reservedKm2, 0);
    assert.ok(Math.abs(account.balanceKm2 - (50 - rows[0].costKm2)) < 1e-6);
  } finally {
    server.child.kill('SIGKILL');
  }
});

test('SIGTERM: a request still running at the grace deadline is cut and not charged, exit 0', { timeout: 240_000 }, async () => {
  const server = await spawnServer(dataDir, EXTRACT, { CITY_WORKERS: '1', CITY_WARMUP_REQUESTS_MS: '0', CITY_SHUTDOWN_GRACE_MS: '50' }, { output: true });
  try {
    assert.ok(await waitForStatus(server, '/readyz', 200), 'ready');
    const { id, key } = await newAccount('cut');
    // an export: its answer only comes once the whole file is written, seconds from now
    const answer = request(`${server.base}/v1/context`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ ...JSON.parse(SLOW_BODY), export: { format: 'ifc' } }),
    }).then(
      async (res) => ({ status: res.statusCode, text: await res.body.text() }),
      (err: Error) => ({ status: 0, text: err.message }),
    );
    await untilReserved(id, server);
    assert.equal(await sigterm(server), 0);
    assert.match(server.output(), /Shutdown: 1 request\(s\) still running after 50 ms are cut/);
    assert.equal((await answer).status, 0, 'the connection was closed without an answer');
    const { rows, account } = await ledger(id);
    assert.deepEqual(
      rows.map((r) => [r.status, r.costKm2]),
      [['aborted', 0]],
    );
    assert.equal(account.reservedKm2, 0);
    assert.equal(account.balanceKm2, 50);
  } finally {
    server.child.kill('SIGKILL');
  }
});
