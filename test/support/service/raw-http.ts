/** Raw sockets on loopback, for clients that misbehave on purpose (stop reading, reset, trickle). */
import { connect, type Socket } from 'node:net';
import { once } from 'node:events';
import { setTimeout as delay } from 'node:timers/promises';

/** A POST /v1/context request as bytes. */
export function rawPost(body: string, key: string | null, headers: Record<string, string> = {}): string {
  const lines = [
    'POST /v1/context HTTP/1.1',
    'Host: 127.0.0.1',
    'Content-Type: application/json',
    `Content-Length: ${Buffer.byteLength(body)}`,
    ...(key ? [`Authorization: Bearer ${key}`] : []),
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
  ];
  return `${lines.join('\r\n')}\r\n\r\n${body}`;
}

/** A connection to the server on 127.0.0.1, from `from` (any 127.x.y.z address is this host too: another client address). */
export async function openSocket(port: number, from?: string): Promise<Socket> {
  const socket = connect({ port, host: '127.0.0.1', ...(from ? { localAddress: from } : {}) });
  await once(socket, 'connect');
  return socket;
}

/** Waits until `check` is true, polling; throws with `what` after `timeoutMs`. */
export async function eventually(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await delay(20);
  }
}

/** Everything the server sends until it closes (or `timeoutMs`), as text. */
export async function readAll(socket: Socket, timeoutMs = 5000): Promise<string> {
  const chunks: Buffer[] = [];
  socket.on('data', (c: Buffer) => chunks.push(c));
  await Promise.race([once(socket, 'close'), delay(timeoutMs)]);
  return Buffer.concat(chunks).toString('utf8');
}
