/**
 * The clients of `npm run soak` (issue 13): well-behaved requests that read their answer to the
 * end, slow readers that stop after the status line, clients that abort mid-stream, and idle
 * sockets that never send a byte. Each loops until the deadline and records what happened.
 */
import { connect, type Socket } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { type Agent, request } from 'undici';
import { endsChunked, readSteadily } from '../../test/support/service/steady-reader.ts';

export interface SoakTally {
  /** Latency of every 200 read to its end, ms. */
  served: number[];
  busy: number;
  /** Other statuses, and failures of well-behaved requests. */
  other: Record<string, number>;
  slowReaders: number;
  /** Answers read to their end at a steady slow rate, and those cut before their end. */
  steady: { completed: number; cut: number; bytes: number };
  aborts: number;
  idleSockets: number;
}

export function newTally(): SoakTally {
  return { served: [], busy: 0, other: {}, slowReaders: 0, steady: { completed: 0, cut: 0, bytes: 0 }, aborts: 0, idleSockets: 0 };
}

export interface SoakTarget {
  base: string;
  key: string;
  body: string;
  until: number;
}

/** One well-behaved client: request, read to the end, again, until the deadline. */
export async function goodClient(t: SoakTarget, agent: Agent, tally: SoakTally): Promise<void> {
  while (Date.now() < t.until) {
    const start = performance.now();
    try {
      const res = await request(`${t.base}/v1/context`, { dispatcher: agent, method: 'POST', headers: headers(t.key), body: t.body });
      await res.body.text();
      if (res.statusCode === 200) tally.served.push(performance.now() - start);
      else if (res.statusCode === 503) {
        tally.busy++;
        await delay(50 + Math.random() * 100); // a polite client backs off a little
      } else tally.other[res.statusCode] = (tally.other[res.statusCode] ?? 0) + 1;
    } catch (err) {
      tally.other[(err as Error).message] = (tally.other[(err as Error).message] ?? 0) + 1;
    }
  }
}

/** A client that reads the status line and then nothing, holding its connection until the server cuts it. */
export async function slowReader(t: SoakTarget, bigBody: string, tally: SoakTally): Promise<void> {
  while (Date.now() < t.until) {
    const socket = await open(t.base);
    socket.write(rawPost(bigBody, t.key));
    await new Promise<void>((resolve) => {
      socket.once('data', () => socket.pause());
      socket.once('close', () => resolve());
      setTimeout(
        () => {
          socket.destroy();
          resolve();
        },
        Math.max(0, t.until - Date.now()),
      ).unref();
    });
    tally.slowReaders++;
  }
}

/**
 * An honest client on a slow link: asks for a large answer (asked again after a 503) and reads it
 * to its end at `bytesPerSecond`, however long that takes past the deadline.
 */
export async function steadyReader(t: SoakTarget, bigBody: string, bytesPerSecond: number, tally: SoakTally): Promise<void> {
  for (;;) {
    const socket = await open(t.base);
    socket.write(rawPost(bigBody, t.key));
    const read = await readSteadily(socket, bytesPerSecond, endsChunked);
    socket.destroy();
    if (read.bytes.subarray(0, 12).toString('latin1') === 'HTTP/1.1 503') {
      if (Date.now() >= t.until) return;
      await delay(500);
      continue;
    }
    if (read.cut) tally.steady.cut++;
    else tally.steady.completed++;
    tally.steady.bytes += read.bytes.length;
    return;
  }
}

/** A client that aborts after a random part of the answer (or before any of it). */
export async function aborter(t: SoakTarget, tally: SoakTally): Promise<void> {
  while (Date.now() < t.until) {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 20 + Math.random() * 800).unref();
    try {
      const res = await request(`${t.base}/v1/context`, { method: 'POST', headers: headers(t.key), body: t.body, signal: controller.signal });
      await res.body.text();
      if (res.statusCode === 503) await delay(100);
    } catch {
      tally.aborts++;
    }
  }
}

/** Sockets that connect and never send a byte; reopened when the server closes them. */
export async function idleSocket(t: SoakTarget, tally: SoakTally): Promise<void> {
  while (Date.now() < t.until) {
    const socket = await open(t.base).catch(() => null);
    if (!socket) {
      await delay(100);
      continue;
    }
    tally.idleSockets++;
    await new Promise<void>((resolve) => {
      socket.once('close', () => resolve());
      socket.once('error', () => resolve());
      setTimeout(
        () => {
          socket.destroy();
          resolve();
        },
        Math.max(0, t.until - Date.now()),
      ).unref();
    });
  }
}

function headers(key: string): Record<string, string> {
  return { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
}

function rawPost(body: string, key: string): string {
  return `POST /v1/context HTTP/1.1\r\nHost: soak\r\nContent-Type: application/json\r\nAuthorization: Bearer ${key}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
}

function open(base: string): Promise<Socket> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname);
    socket.once('connect', () => resolve(socket));
    socket.once('error', reject);
  });
}

/** The q-quantile of `xs` (nearest rank). */
export function quantile(xs: number[], q: number): number {
  if (xs.length === 0) return NaN;
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
}
