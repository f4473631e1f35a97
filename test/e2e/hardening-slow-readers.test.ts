/**
 * Slow but honest readers are served to the end, and what an answer holds in memory while its
 * client reads is bounded; over raw sockets on loopback against the app with a stand-in pool.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Socket } from 'node:net';
import { HTTP_LIMIT_DEFAULTS } from '../../src/server/http-limits.ts';
import { startTestService } from '../support/service/http.ts';
import { square } from '../support/polygons.ts';
import { startFakeApp, smallBody } from '../support/service/fake-app.ts';
import { openSocket, rawPost } from '../support/service/raw-http.ts';
import { chunkedBody, endsChunked, readSteadily } from '../support/service/steady-reader.ts';

/** ~2 × 1.5 km: the stand-in pool answers each of its 500 m tiles with `itemsPerTile` buildings. */
const WIDE = smallBody({}, 0.018);

test('a client reading steadily slower than the answer is written gets all of it and is charged', async () => {
  // The answer (~14 MB) is much larger than what the kernel buffers hold, and takes the reader
  // several slow-reader timeouts: it is cut unless the watch sees the bytes the client takes.
  const app = await startFakeApp({ itemsPerTile: 11_000, threads: 2, limits: { slowReaderTimeoutMs: 5_000 } });
  try {
    const { accountId, key } = await app.newKey(10);
    const socket = await openSocket(app.port);
    socket.write(rawPost(JSON.stringify(WIDE), key));
    const read = await readSteadily(socket, 1_000_000, endsChunked);
    socket.destroy();
    assert.equal(read.cut, false, `cut after ${read.bytes.length} bytes: ${app.log.join('\n')}`);
    const body = chunkedBody(read.bytes);
    assert.ok(body.length > 12_000_000, `${body.length} bytes`);
    const json = JSON.parse(body.toString('utf8'));
    assert.ok(json.geometry[0].meshes.length > 100_000);
    assert.equal((await app.accounts.usage(accountId))[0].status, 'completed');
  } finally {
    await app.close();
  }
});

test('an answer waiting for a slow reader holds at most its buffer bound: its tiles wait for the client', async () => {
  const bound = 1 << 20;
  const sockets = new Set<Socket>();
  let mostWaiting = 0;
  let tiles = 0;
  const app = await startFakeApp({
    itemsPerTile: 11_000, // ~1 MB a tile
    threads: 2,
    limits: { slowReaderTimeoutMs: 4_000, maxAnswerBufferBytes: bound },
    onTile: () => {
      tiles++;
      // what the server holds unsent for the answer at the moment another tile starts
      for (const s of sockets) mostWaiting = Math.max(mostWaiting, s.writableLength);
    },
  });
  app.server.on('connection', (s: Socket) => sockets.add(s));
  try {
    const { key } = await app.newKey(10);
    const socket = await openSocket(app.port);
    socket.write(rawPost(JSON.stringify(WIDE), key));
    const read = await readSteadily(socket, 2_000_000, endsChunked);
    socket.destroy();
    assert.equal(read.cut, false, app.log.join('\n'));
    assert.ok(tiles >= 12, `${tiles} tiles`);
    // two tiles in flight may land after the check that let the last one start
    assert.ok(mostWaiting <= bound + 2 * 1_100_000, `${mostWaiting} bytes waited in the server while a tile started`);
  } finally {
    await app.close();
  }
});

test('the Monaco sample: a 10 MB answer read at 500 KB/s, past a 2 MiB buffer bound, arrives whole and is charged', { timeout: 180_000 }, async () => {
  // A 2 MiB bound makes the real pipeline pause on the reader; the timeout stays above the ~3 s
  // the kernel takes between two bites of a 500 KB/s reader's answer.
  const svc = await startTestService({ http: { ...HTTP_LIMIT_DEFAULTS, slowReaderTimeoutMs: 8_000, maxAnswerBufferBytes: 2 << 20 } });
  try {
    const account = await svc.accounts.createAccount({ name: 'steady', balanceKm2: 20 });
    const key = (await svc.accounts.createKey(account.id, 'development')).key;
    const socket = await openSocket(Number(new URL(svc.url).port));
    socket.write(rawPost(JSON.stringify({ polygon: square(43.7335, 7.4195, 3000) }), key));
    const read = await readSteadily(socket, 500_000, endsChunked);
    socket.destroy();
    assert.equal(read.cut, false, `cut after ${read.bytes.length} bytes`);
    const json = JSON.parse(chunkedBody(read.bytes).toString('utf8'));
    assert.ok(read.bytes.length > 8_000_000, `${read.bytes.length} bytes`);
    const buildings = json.geometry.find((g: { type: string }) => g.type === 'buildings');
    assert.ok(buildings.meshes.length > 1000, `${buildings.meshes.length} buildings`);
    assert.equal((await svc.accounts.usage(account.id))[0].status, 'completed');
  } finally {
    await svc.close();
  }
});
