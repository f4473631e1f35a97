/**
 * Issue 13.2 (slow readers hold every slot) and 13.4 (charged for data never received), over
 * raw sockets on loopback against the app with a stand-in pool.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import type { Socket } from 'node:net';
import { request } from 'undici';
import { Admission } from '../../src/server/admission.ts';
import { startFakeApp, smallBody } from '../support/service/fake-app.ts';
import { postContext } from '../support/service/http.ts';
import { eventually, openSocket, rawPost } from '../support/service/raw-http.ts';

test('a client that stops reading is cut off: its slot is freed and it is not charged', async () => {
  // ~36 MB of response: far more than the loopback socket buffers hold.
  const app = await startFakeApp({
    itemsPerTile: 300_000,
    admission: new Admission({ maxInFlight: 1, maxQueue: 0, timeoutMs: 1000 }),
    limits: { slowReaderTimeoutMs: 300 },
  });
  try {
    const { accountId, key } = await app.newKey(10);
    const socket = await openSocket(app.port);
    socket.write(rawPost(JSON.stringify(smallBody()), key));
    await once(socket, 'data'); // the status line came; now stop reading
    socket.pause();
    const health = async () => ((await (await request(`${app.url}/healthz`)).body.json()) as { inFlight: number }).inFlight;
    await eventually(async () => (await health()) === 0, 'the stalled response released its slot');
    const second = await postContext(app.url, key, smallBody({ settings: { geometry: ['barriers'] } }));
    assert.equal(second.status, 200, 'the next request is served, not 503');
    await eventually(async () => (await app.accounts.usage(accountId)).some((u) => u.status === 'aborted'), 'the stalled request is released');
    const usage = await app.accounts.usage(accountId);
    assert.deepEqual(usage.map((u) => u.status).sort(), ['aborted', 'completed']);
    assert.equal((await app.accounts.getAccount(accountId))!.reservedKm2, 0);
    assert.ok(
      app.log.some((l) => /read nothing for 300 ms/.test(l)),
      app.log.join('\n'),
    );
    socket.destroy();
  } finally {
    await app.close();
  }
});

test('a slow computation with nothing to send is not mistaken for a slow reader', async () => {
  const app = await startFakeApp({ delayMs: 600, limits: { slowReaderTimeoutMs: 200 } });
  try {
    const { key } = await app.newKey(10);
    const r = await postContext(app.url, key, smallBody());
    assert.equal(r.status, 200);
    assert.ok(r.json.geometry[0].meshes.length > 0);
  } finally {
    await app.close();
  }
});

test('a response reset by the client right after its last byte left is refunded', async () => {
  const app = await startFakeApp({ itemsPerTile: 100, limits: { deliveryWindowMs: 2000 } });
  try {
    const { accountId, key } = await app.newKey(10);
    const socket = await openSocket(app.port);
    socket.pause(); // never read: the whole answer stays in the kernel's buffers
    socket.write(rawPost(JSON.stringify(smallBody()), key));
    await eventually(async () => (await app.accounts.usage(accountId))[0]?.status === 'completed', 'the response finished and was charged');
    // What a client that closes with unread data does (its kernel resets the connection); Node's
    // pause() may already have read the bytes into memory, so the reset is sent explicitly.
    socket.resetAndDestroy();
    await eventually(async () => (await app.accounts.usage(accountId))[0]?.status === 'aborted', 'the charge is taken back');
    const account = (await app.accounts.getAccount(accountId))!;
    assert.deepEqual([account.balanceKm2, account.reservedKm2], [10, 0]);
    assert.equal((await app.accounts.usage(accountId))[0].costKm2, 0);
  } finally {
    await app.close();
  }
});

test('a response read to its end stays charged after the delivery window', async () => {
  const app = await startFakeApp({ itemsPerTile: 100, limits: { deliveryWindowMs: 200 } });
  try {
    const { accountId, key } = await app.newKey(10);
    const r = await postContext(app.url, key, smallBody());
    assert.equal(r.status, 200);
    await new Promise((done) => setTimeout(done, 400));
    assert.equal((await app.accounts.usage(accountId))[0].status, 'completed');
    assert.ok((await app.accounts.getAccount(accountId))!.balanceKm2 < 10);
  } finally {
    await app.close();
  }
});

test('a reset refunds only the last response of a kept-alive connection, not the ones the client asked past', async () => {
  const app = await startFakeApp({ itemsPerTile: 100, limits: { deliveryWindowMs: 5000 } });
  try {
    const { accountId, key } = await app.newKey(10);
    const socket = await openSocket(app.port);
    let received = '';
    socket.on('data', (c: Buffer) => {
      received += c.toString('latin1');
    });
    const ends = () => received.split('\r\n0\r\n\r\n').length - 1; // chunked answers end with a zero chunk
    for (let n = 1; n <= 12; n++) {
      socket.write(rawPost(JSON.stringify(smallBody()), key));
      await eventually(() => ends() === n, `answer ${n} arrived`);
    }
    await eventually(
      async () => (await app.accounts.usage(accountId))[0]?.status === 'completed' && (await app.accounts.usage(accountId)).length === 12,
      'all charged',
    );
    socket.resetAndDestroy();
    await eventually(async () => (await app.accounts.usage(accountId))[0].status === 'aborted', 'the last answer is refunded');
    await new Promise((done) => setTimeout(done, 100));
    const statuses = (await app.accounts.usage(accountId)).map((u) => u.status);
    assert.deepEqual(statuses, ['aborted', ...Array(11).fill('completed')]);
  } finally {
    await app.close();
  }
});

for (const mode of ['keep-alive', 'close']) {
  test(`Connection: ${mode}: a client that read only part of a large answer and resets is refunded`, async () => {
    const app = await startFakeApp({ itemsPerTile: 33_000, limits: { deliveryWindowMs: 2000 } }); // ~3 MB
    const serverSide: Socket[] = [];
    app.server.on('connection', (s: Socket) => serverSide.push(s));
    try {
      const { accountId, key } = await app.newKey(10);
      const socket = await openSocket(app.port);
      let received = 0;
      socket.on('data', (c: Buffer) => {
        received += c.length;
        if (received > 2_400_000) socket.pause(); // the rest stays unread in the kernel's buffers
      });
      socket.write(rawPost(JSON.stringify(smallBody()), key, { Connection: mode }));
      await eventually(async () => (await app.accounts.usage(accountId))[0]?.status === 'completed', 'the answer was handed to the kernel and charged');
      await eventually(() => serverSide[0]?.writableLength === 0, 'the kernel took the whole answer');
      // with close, the server has sent its FIN: the connection is its to close now, and Node would at once
      if (mode === 'close') await eventually(() => serverSide[0]?.writableFinished === true, 'the server ended its side');
      await new Promise((done) => setImmediate(done));
      socket.resetAndDestroy();
      await eventually(async () => (await app.accounts.usage(accountId))[0]?.status === 'aborted', 'the charge is taken back');
      assert.deepEqual((await app.accounts.getAccount(accountId))!.balanceKm2, 10);
    } finally {
      await app.close();
    }
  });
}

test('with Connection: close, a client that read the whole answer and closes stays charged', async () => {
  const app = await startFakeApp({ itemsPerTile: 33_000, limits: { deliveryWindowMs: 5000 } });
  try {
    const { accountId, key } = await app.newKey(10);
    const socket = await openSocket(app.port);
    const text = await new Promise<string>((resolve) => {
      const chunks: Buffer[] = [];
      socket.on('data', (c: Buffer) => chunks.push(c));
      socket.on('end', () => {
        socket.end(); // the whole answer and the server's FIN arrived: a clean close
        resolve(Buffer.concat(chunks).toString('utf8'));
      });
      socket.write(rawPost(JSON.stringify(smallBody()), key, { Connection: 'close' }));
    });
    assert.match(text, /^HTTP\/1\.1 200/);
    assert.match(text, /"dataAccess":\{[^}]*\}\}\r\n0\r\n\r\n$/);
    await once(socket, 'close');
    assert.equal((await app.accounts.usage(accountId))[0].status, 'completed');
    assert.ok((await app.accounts.getAccount(accountId))!.balanceKm2 < 10);
  } finally {
    await app.close();
  }
});
