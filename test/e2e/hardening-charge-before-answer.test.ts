/**
 * The charge is committed before the bytes that complete an answer leave the process, so a crash
 * at any instant after the client has its answer cannot leave it free; when those bytes do not
 * get out, the charge is refunded. Observed on the server's side of real connections: the ledger
 * is read at the moment the answer's last write reaches the socket.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Socket } from 'node:net';
import type { UsageStatus } from '../../src/accounts/types.ts';
import { postContext } from '../support/service/http.ts';
import { ORIGIN, POLYGON, startExportApp, type ExportApp } from '../support/service/export-app.ts';
import { eventually } from '../support/service/raw-http.ts';
import { MemoryExportStore } from '../support/stores/memory-export-store.ts';

let app: ExportApp;
/** Runs on every write to a server-side socket, before the bytes go out. */
let onWrite: (text: string, socket: Socket) => void = () => {};

before(async () => {
  app = await startExportApp({ store: new MemoryExportStore() });
  app.server.on('connection', (socket: Socket) => {
    const write = socket.write;
    socket.write = function (this: Socket, chunk: unknown, ...rest: unknown[]) {
      onWrite(typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('latin1'), socket);
      return (write as (...a: unknown[]) => boolean).call(this, chunk, ...rest);
    } as Socket['write'];
  });
});
after(async () => {
  onWrite = () => {};
  await app?.close();
});

async function newAccount() {
  const account = await app.svc.accounts.createAccount({ name: `c${Math.random()}`, balanceKm2: 10, active: true });
  return { id: account.id, key: (await app.svc.accounts.createKey(account.id, 'development')).key };
}
const lastStatus = async (id: number): Promise<UsageStatus> => (await app.svc.accounts.usage(id))[0].status;

test('an export is charged before its 200 with the link is written', async () => {
  const { id, key } = await newAccount();
  // read as the bytes are written (the read starts there; SQLite's even completes there)
  let atAnswer: Promise<UsageStatus> | null = null;
  onWrite = (text) => {
    if (text.startsWith('HTTP/1.1 200')) atAnswer = lastStatus(id);
  };
  const r = await postContext(app.url, key, { polygon: POLYGON, origin: ORIGIN, settings: { geometry: ['buildings'] }, export: { format: 'glb' } });
  assert.equal(r.status, 200, r.text);
  assert.equal(await atAnswer, 'completed');
  assert.ok((await app.svc.accounts.getAccount(id))!.balanceKm2 < 10);
});

test('an export whose answer does not get out is refunded', async () => {
  const { id, key } = await newAccount();
  onWrite = (text, socket) => {
    // the connection fails as the link goes out, as a write to a connection the client reset does
    if (text.startsWith('HTTP/1.1 200')) socket.destroy(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
  };
  await postContext(app.url, key, { polygon: POLYGON, origin: ORIGIN, settings: { geometry: ['buildings'] }, export: { format: 'glb' } }).catch(() => null);
  await eventually(
    async () => (await lastStatus(id)) === 'aborted',
    `the export is settled uncharged: ${JSON.stringify((await app.svc.accounts.usage(id))[0])}`,
  );
  assert.equal((await app.svc.accounts.getAccount(id))!.balanceKm2, 10);
  assert.equal((await app.svc.accounts.getAccount(id))!.reservedKm2, 0);
});

test('a JSON answer is charged before the bytes that complete it are written', async () => {
  const { id, key } = await newAccount();
  // read as the bytes are written (the read starts there; SQLite's even completes there)
  let atEnd: Promise<UsageStatus> | null = null;
  onWrite = (text) => {
    if (text.includes('"dataAccess"')) atEnd = lastStatus(id);
  };
  const r = await postContext(app.url, key, { polygon: POLYGON, settings: { geometry: ['buildings'] } });
  assert.equal(r.status, 200);
  assert.ok(r.json.geometry[0].meshes.length > 0);
  assert.equal(await atEnd, 'completed');
});
