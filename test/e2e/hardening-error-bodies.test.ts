/**
 * Issue 13.1: error-body amplification before admission. Bad input must cost the server little and
 * get a short answer, whatever its size or shape.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startFakeApp, smallBody, type FakeApp } from '../support/service/fake-app.ts';
import { postContext } from '../support/service/http.ts';
import { openSocket, rawPost, readAll } from '../support/service/raw-http.ts';

let app: FakeApp;
before(async () => {
  app = await startFakeApp({ maxBodyBytes: 8 << 20 });
});
after(async () => {
  await app.close();
});

test('a million bad geometry entries get a short error body, not one detail per entry', async () => {
  const { key } = await app.newKey(10);
  const body = JSON.stringify(smallBody({ settings: { geometry: Array(1_000_000).fill('x'), surfaceTypes: Array(1_000_000).fill(7) } }));
  assert.ok(body.length > 4_000_000);
  const r = await postContext(app.url, key, body);
  assert.equal(r.status, 400);
  assert.equal(r.json.code, 'invalid_setting');
  assert.ok(r.text.length < 4096, `error body of ${r.text.length} bytes`);
  assert.ok(r.json.details.length <= 11);
  // validation stopped early instead of walking two million entries (the unbounded version took
  // 6–13 s and hundreds of MB here, and counted 1,999,990 more problems)
  const omitted = r.json.details.at(-1).omitted;
  assert.ok(omitted < 100, `${omitted} problems omitted`);
});

test('error details stop at 10, the last one counting the rest', async () => {
  const { key } = await app.newKey(10);
  const settings = {
    defaultLevels: -1,
    defaultLevelHeight: -1,
    cropScene: 'x',
    topographyModel: 'x',
    combineElevationMaps: 'x',
    projectToTopography: 'x',
    disableSurfaceProjection: 'x',
    indexedMeshes: 'x',
    upAxis: 'q',
    crs: 'q',
    treeSource: 'q',
    buildingSources: 'q',
    defaultRoofType: 'q',
  };
  const r = await postContext(app.url, key, smallBody({ settings }));
  assert.equal(r.status, 400);
  assert.equal(r.json.details.length, 11);
  assert.equal(r.json.details[10].omitted, 3);
  assert.match(r.json.details[10].message, /3 more/);
});

test('a body nested deeper than the limit is refused as invalid_json before it is parsed', async () => {
  const { key } = await app.newKey(10);
  const deep = '['.repeat(2000) + ']'.repeat(2000);
  const text = JSON.stringify(smallBody()).replace(/^\{/, `{"junk":${deep},`);
  const r = await postContext(app.url, key, text);
  assert.equal(r.status, 400);
  assert.equal(r.json.code, 'invalid_json');
  assert.match(r.json.error, /nests/);
  // Brackets inside strings do not count.
  const ok = await postContext(app.url, key, JSON.stringify(smallBody({ note: '['.repeat(5000) })));
  assert.equal(ok.status, 200);
});

test('an account that cannot pay for the smallest request is refused before its body is read', async () => {
  const { key } = await app.newKey(0);
  const r = await postContext(app.url, key, '{"this is": not json at all');
  assert.equal(r.status, 402);
  assert.equal(r.json.code, 'insufficient_balance');
  assert.deepEqual(Object.keys(r.json).sort(), ['code', 'details', 'error']);
});

test('an unknown key is refused before its body is read, and still sees its 401', async () => {
  const big = JSON.stringify(smallBody({ pad: 'x'.repeat(6 << 20) }));
  const r = await postContext(app.url, 'cc_dev_nope', big);
  assert.equal(r.status, 401);
  assert.equal(r.json.code, 'unauthorized');
  assert.match(String(r.headers['www-authenticate']), /^Bearer/);
});

test('bodies held in memory at once are bounded: past the budget an upload gets 503, later ones are served', async () => {
  const small = await startFakeApp({ maxBodyBytes: 1 << 20, limits: { maxBufferedBodyBytes: 1 << 20 } });
  try {
    const { key } = await small.newKey(10);
    const padded = (bytes: number) => JSON.stringify(smallBody({ pad: 'x'.repeat(bytes) }));
    // A: 700 KB announced, 600 KB sent, then it pauses — its bytes stay held.
    const a = padded(700_000);
    const socket = await openSocket(small.port);
    const raw = rawPost(a, key, { Connection: 'close' });
    socket.write(raw.slice(0, raw.length - 100_000));
    await new Promise((done) => setTimeout(done, 200));
    const b = await postContext(small.url, key, padded(500_000));
    assert.equal(b.status, 503);
    assert.equal(b.json.code, 'server_busy');
    assert.ok(Number(b.headers['retry-after']) > 0);
    socket.write(raw.slice(raw.length - 100_000));
    const answer = await readAll(socket, 3000);
    assert.match(answer, /^HTTP\/1\.1 200/);
    socket.destroy();
    assert.equal((await postContext(small.url, key, padded(500_000))).status, 200);
  } finally {
    await small.close();
  }
});

test('an object with more keys than any request needs is refused before it is parsed or validated', async () => {
  const { key, accountId } = await app.newKey(10);
  const wide = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, 1]));
  // 400,000 unknown keys in `settings` (4.7 MB), for the minimum price.
  const flood = await postContext(app.url, key, smallBody({ settings: { geometry: ['buildings'], ...wide(400_000) } }));
  assert.equal(flood.status, 400);
  assert.equal(flood.json.code, 'invalid_json');
  assert.match(flood.json.error, /more than 256 keys/);
  // Just past the limit, and keys inside strings do not count.
  assert.equal((await postContext(app.url, key, smallBody({ extra: wide(257) }))).status, 400);
  const fine = await postContext(app.url, key, smallBody({ extra: wide(256), note: '"a":1,'.repeat(1000) }));
  assert.equal(fine.status, 200, fine.text);
  assert.equal((await app.accounts.usage(accountId)).filter((r) => r.status === 'completed').length, 1);
});

test('Expect: 100-continue with a declared body over the limit gets 413 at once, never "100 Continue"', async () => {
  const { key } = await app.newKey(10);
  const head = (length: number) =>
    `POST /v1/context HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nAuthorization: Bearer ${key}\r\nExpect: 100-continue\r\nContent-Length: ${length}\r\n\r\n`;
  const socket = await openSocket(app.port);
  socket.write(head(10 * 1024 ** 3)); // 10 GB announced; the body never comes
  const raw = await readAll(socket, 3000);
  assert.match(raw, /^HTTP\/1\.1 413 /, raw.slice(0, 40));
  assert.equal(JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4)).code, 'payload_too_large');
  // A body within the limit is invited, then served.
  const body = JSON.stringify(smallBody());
  const ok = await openSocket(app.port);
  const first = new Promise<string>((resolve) => ok.once('data', (c: Buffer) => resolve(c.toString('utf8'))));
  ok.write(head(Buffer.byteLength(body)).replace('\r\n\r\n', '\r\nConnection: close\r\n\r\n'));
  assert.match(await first, /^HTTP\/1\.1 100 Continue/);
  const rest = readAll(ok, 5000);
  ok.write(body);
  assert.match(await rest, /HTTP\/1\.1 200 /);
});
