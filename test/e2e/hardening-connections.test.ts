/**
 * Idle sockets, the connection cap and the per-address share of it, trickled bodies, protocol
 * edges answered with the JSON error body (an oversized upload sees its 413; Content-Type
 * checked), and the /healthz method rule.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { setTimeout as delay } from 'node:timers/promises';
import { request } from 'undici';
import { startFakeApp, smallBody, type FakeApp } from '../support/service/fake-app.ts';
import { postContext } from '../support/service/http.ts';
import type { Socket } from 'node:net';
import { TrustedProxies } from '../../src/server/trusted-proxies.ts';
import { eventually, openSocket, rawPost, readAll } from '../support/service/raw-http.ts';

async function withApp(options: Parameters<typeof startFakeApp>[0], fn: (app: FakeApp) => Promise<void>) {
  const app = await startFakeApp(options);
  try {
    await fn(app);
  } finally {
    await app.close();
  }
}

/** Status and parsed JSON body of a raw HTTP answer. */
function parseAnswer(raw: string): { status: number; type: string; json: any } {
  const [head, body] = [raw.slice(0, raw.indexOf('\r\n\r\n')), raw.slice(raw.indexOf('\r\n\r\n') + 4)];
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]);
  const type = /content-type: ([^\r\n]+)/i.exec(head)?.[1] ?? '';
  let json: any = null;
  try {
    json = JSON.parse(body);
  } catch {
    /* not JSON */
  }
  return { status, type, json };
}

/** A POST /v1/context from the client address `from`; its status, or the error's code when the connection was refused. */
async function postContextFrom(port: number, from: string, key: string): Promise<number | string> {
  const socket = await openSocket(port, from);
  socket.on('error', () => {});
  socket.write(rawPost(JSON.stringify(smallBody()), key, { Connection: 'close' }));
  const raw = await readAll(socket);
  return raw ? parseAnswer(raw).status : 'closed without an answer';
}

test('a connection that never sends a byte is closed after the idle timeout', () =>
  withApp({ limits: { idleTimeoutMs: 300 } }, async (app) => {
    const socket = await openSocket(app.port);
    const closed = await Promise.race([once(socket, 'close').then(() => true), delay(3000).then(() => false)]);
    assert.ok(closed, 'the idle socket is still open');
  }));

/** Resolves true when `socket` closes within `ms`, false when it is still open then. */
function closesWithin(socket: Socket, ms: number): Promise<boolean> {
  if (socket.destroyed) return Promise.resolve(true);
  return Promise.race([once(socket, 'close').then(() => true), delay(ms).then(() => false)]);
}

/** GET /healthz on a raw socket, kept alive; resolves with the status once the answer is in. */
async function healthOn(socket: Socket): Promise<number> {
  const answer = new Promise<string>((resolve) => {
    let text = '';
    socket.on('data', (c: Buffer) => {
      text += c.toString('utf8');
      if (/\r\n\r\n\{.*\}$/s.test(text)) resolve(text);
    });
    socket.once('close', () => resolve(text));
  });
  socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
  return parseAnswer(await answer).status;
}

test('at the connection cap the oldest connection that never made a request makes room for the newcomer', () =>
  withApp({ limits: { maxConnections: 3, maxConnectionsPerAddress: 100 } }, async (app) => {
    const held = [];
    for (let i = 0; i < 3; i++) held.push(await openSocket(app.port));
    await delay(50);
    const { key } = await app.newKey(10);
    const fresh = await openSocket(app.port, '127.0.0.2');
    fresh.write(rawPost(JSON.stringify(smallBody()), key, { Connection: 'close' }));
    assert.equal(parseAnswer(await readAll(fresh)).status, 200, 'the newcomer was refused');
    assert.ok(await closesWithin(held[0], 1000), 'the oldest idle connection is still open');
    assert.equal(await closesWithin(held[1], 200), false, 'a younger idle connection was closed too');
    for (const s of held) s.destroy();
  }));

test('at the connection cap with every connection in use, the newcomer is closed and the others keep working', () =>
  withApp({ limits: { maxConnections: 3, maxConnectionsPerAddress: 100 } }, async (app) => {
    const held = await Promise.all([0, 1, 2].map(() => openSocket(app.port)));
    for (const s of held) assert.equal(await healthOn(s), 200); // kept alive after their request
    const extra = await openSocket(app.port);
    assert.ok(await closesWithin(extra, 2000), 'the fourth connection was kept');
    held[0].removeAllListeners('data');
    assert.equal(await healthOn(held[0]), 200);
    for (const s of held) s.destroy();
  }));

test('one client flooding sockets holds at most its per-address share; another client is still served', () =>
  withApp({ limits: { maxConnections: 16, maxConnectionsPerAddress: 4 } }, async (app) => {
    const { key } = await app.newKey(10);
    const flood: Socket[] = [];
    let reopened = 0;
    let stop = false;
    // Re-opens each socket as soon as the server closes it, as the attacker of the issue did.
    const keepOpen = async () => {
      while (!stop) {
        const s = await openSocket(app.port).catch(() => null);
        if (!s) continue;
        s.on('error', () => {});
        flood.push(s);
        await once(s, 'close');
        reopened++;
      }
    };
    const floods = Array.from({ length: 24 }, keepOpen);
    let other: number | string;
    let openFromFlood: number;
    try {
      await eventually(() => reopened > 40, 'the flood was turned away and re-opened');
      other = await postContextFrom(app.port, '127.0.0.2', key);
    } finally {
      stop = true;
      await delay(300); // the last re-opened ones are turned away too
      openFromFlood = flood.filter((s) => !s.destroyed).length;
      for (const s of flood) s.destroy();
      await Promise.all(floods);
    }
    assert.equal(other, 200);
    assert.ok(openFromFlood <= 4, `${openFromFlood} flood sockets open`);
  }));

test('connections from a trusted proxy are not capped per address', () =>
  withApp({ limits: { maxConnectionsPerAddress: 2 }, trustedProxies: new TrustedProxies(['127.0.0.0/8']) }, async (app) => {
    const held = [];
    for (let i = 0; i < 5; i++) held.push(await openSocket(app.port));
    await delay(100);
    assert.deepEqual(
      held.map((s) => s.destroyed),
      [false, false, false, false, false],
    );
    assert.equal(await healthOn(held[4]), 200);
    for (const s of held) s.destroy();
  }));

test('a body trickled slower than the request timeout gets 408 with the JSON error body', () =>
  withApp({ limits: { requestTimeoutMs: 400, headersTimeoutMs: 400 } }, async (app) => {
    const { key } = await app.newKey(10);
    const socket = await openSocket(app.port);
    const raw = rawPost(JSON.stringify(smallBody()), key);
    const cut = raw.indexOf('\r\n\r\n') + 4;
    socket.write(raw.slice(0, cut));
    const answer = readAll(socket, 5000);
    for (let k = cut; k < raw.length && !socket.destroyed; k += 5) {
      socket.write(raw.slice(k, k + 5));
      await delay(100);
    }
    const parsed = parseAnswer(await answer);
    assert.equal(parsed.status, 408);
    assert.equal(parsed.json?.code, 'request_timeout');
  }));

test('malformed framing and over-long headers get the JSON error body, not a bare status line', () =>
  withApp({}, async (app) => {
    const cases: [string, number, string][] = [
      ['GARBAGE\r\n\r\n', 400, 'invalid_request'],
      ['POST /v1/context HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nhello', 400, 'invalid_request'],
      ['POST /v1/context HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n', 400, 'invalid_request'],
      [`GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, 431, 'headers_too_large'],
    ];
    for (const [raw, status, code] of cases) {
      const socket = await openSocket(app.port);
      socket.write(raw);
      const parsed = parseAnswer(await readAll(socket));
      assert.equal(parsed.status, status, raw.slice(0, 40));
      assert.match(parsed.type, /application\/json/);
      assert.equal(parsed.json?.code, code);
      assert.equal(typeof parsed.json?.error, 'string');
      assert.ok(Array.isArray(parsed.json?.details));
    }
  }));

test('an oversized upload is read to its end and answered 413 with the error body', () =>
  withApp({ maxBodyBytes: 1 << 20 }, async (app) => {
    const { key, accountId } = await app.newKey(10);
    // A plain client that sends its whole body before it reads (as curl without Expect does).
    const socket = await openSocket(app.port);
    let error: Error | null = null;
    socket.on('error', (err) => {
      error = err;
    });
    socket.write(rawPost(JSON.stringify(smallBody({ pad: 'x'.repeat(6 << 20) })), key));
    const parsed = parseAnswer(await readAll(socket, 10_000));
    assert.equal(error, null);
    assert.equal(parsed.status, 413);
    assert.equal(parsed.json?.code, 'payload_too_large');
    assert.equal((await app.accounts.usage(accountId)).length, 0);
    socket.destroy();
  }));

test('a body that is not declared JSON gets 415 unsupported_media_type; no type at all is read as JSON', () =>
  withApp({}, async (app) => {
    const { key } = await app.newKey(10);
    const form = await postContext(app.url, key, JSON.stringify(smallBody()), { 'content-type': 'application/x-www-form-urlencoded' });
    assert.equal(form.status, 415);
    assert.equal(form.json.code, 'unsupported_media_type');
    const charset = await postContext(app.url, key, JSON.stringify(smallBody()), { 'content-type': 'application/json; charset=utf-8' });
    assert.equal(charset.status, 200);
    const socket = await openSocket(app.port);
    socket.write(
      rawPost(JSON.stringify(smallBody()), key).replace('Content-Type: application/json\r\n', '').replace('HTTP/1.1\r\n', 'HTTP/1.1\r\nConnection: close\r\n'),
    );
    assert.equal(parseAnswer(await readAll(socket)).status, 200);
  }));

test('/healthz answers GET and HEAD only', () =>
  withApp({}, async (app) => {
    assert.equal((await request(`${app.url}/healthz`, { method: 'HEAD' })).statusCode, 200);
    const post = await request(`${app.url}/healthz`, { method: 'POST', body: '{}' });
    assert.equal(post.statusCode, 405);
    assert.equal(post.headers.allow, 'GET, HEAD');
    assert.equal(((await post.body.json()) as { code: string }).code, 'method_not_allowed');
  }));
