/**
 * A download whose client stops reading is cut after the slow-reader timeout, and the file handle
 * it held is closed (after the sweep it would also hold the disk space of a deleted file); a client
 * that reads is served to the end. The real service, its local store and raw sockets.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { readdirSync, readlinkSync } from 'node:fs';
import { HTTP_LIMIT_DEFAULTS } from '../../src/server/http-limits.ts';
import type { StoredExport } from '../../src/export/store/types.ts';
import type { RunningService } from '../../src/service.ts';
import { startTestService } from '../support/service/http.ts';
import { eventually, openSocket } from '../support/service/raw-http.ts';

const SIZE = 40 * 1024 * 1024; // far more than the loopback socket buffers hold
let service: RunningService;

before(async () => {
  service = await startTestService({ http: { ...HTTP_LIMIT_DEFAULTS, slowReaderTimeoutMs: 600 } });
});
after(async () => {
  await service?.close();
});

/** File descriptors of this process (the service runs in it) open on `file`. */
const handlesOn = (file: StoredExport) =>
  readdirSync('/proc/self/fd').filter((fd) => {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`).includes(file.token);
    } catch {
      return false; // closed meanwhile
    }
  }).length;

/** A new exported file and the request that downloads it. */
async function download(): Promise<{ file: StoredExport; request: string }> {
  const file = await service.exports.put('big.glb', new Uint8Array(SIZE).fill(7), 'model/gltf-binary');
  return { file, request: `GET /v1/exports/${file.token}/big.glb HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n` };
}

test('a download whose client reads nothing is cut and its file handle closed', async () => {
  const { file, request } = await download();
  const socket = await openSocket(Number(new URL(service.url).port));
  socket.write(request);
  await once(socket, 'data'); // the answer started; now stop reading
  socket.pause();
  await eventually(() => handlesOn(file) > 0 || socket.destroyed, 'the file is open for the download');
  await eventually(() => handlesOn(file) === 0, 'the stalled download let go of the file', 10_000);
  socket.resume(); // what the kernel still holds, then the server's close
  socket.on('data', () => {});
  await once(socket, 'close');
});

test('a download read to its end is served whole', async () => {
  const { file, request } = await download();
  const socket = await openSocket(Number(new URL(service.url).port));
  let received = 0;
  socket.on('data', (c: Buffer) => {
    received += c.length;
  });
  socket.write(request);
  await eventually(() => received >= SIZE, 'the whole file arrived', 20_000);
  socket.destroy();
  assert.ok(received > SIZE);
  await eventually(() => handlesOn(file) === 0, 'the file is closed after the download');
});
