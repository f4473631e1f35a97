/**
 * A client that reads its answer at a steady rate, as a slow but honest link does: it takes at most
 * `bytesPerSecond` on average and pauses its socket in between, so the server's kernel buffers fill
 * and the server sees its answer leave at that rate.
 */
import type { Socket } from 'node:net';

export interface SteadyRead {
  /** Every byte received, status line and headers included. */
  bytes: Buffer;
  /** True when the server closed the connection before the answer's end arrived. */
  cut: boolean;
}

/**
 * Reads from `socket` at `bytesPerSecond` until `isComplete(received)` holds or the server closes.
 * Resolves in either case; it never fails on time (the caller decides what a cut answer means).
 */
export function readSteadily(socket: Socket, bytesPerSecond: number, isComplete: (received: Buffer) => boolean): Promise<SteadyRead> {
  const chunks: Buffer[] = [];
  let received = 0;
  const started = performance.now();
  return new Promise((resolve) => {
    let settled = false;
    const settle = (cut: boolean) => {
      if (settled) return;
      settled = true;
      resolve({ bytes: Buffer.concat(chunks), cut });
    };
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      received += chunk.length;
      // Tail checks only: the end of an answer is in its last bytes.
      if (isComplete(Buffer.concat(chunks.slice(-2)))) return settle(false);
      const ahead = received / bytesPerSecond - (performance.now() - started) / 1000;
      if (ahead > 0) {
        socket.pause();
        setTimeout(() => socket.resume(), ahead * 1000);
      }
    });
    socket.once('close', () => settle(!isComplete(Buffer.concat(chunks.slice(-2)))));
    socket.once('error', () => settle(true));
  });
}

/** The end of a chunked HTTP/1.1 body. */
export const endsChunked = (tail: Buffer): boolean => tail.subarray(-5).toString('latin1') === '0\r\n\r\n';

/** The body of a raw HTTP/1.1 answer with `Transfer-Encoding: chunked`, de-chunked. */
export function chunkedBody(raw: Buffer): Buffer {
  let at = raw.indexOf('\r\n\r\n') + 4;
  const parts: Buffer[] = [];
  for (;;) {
    const eol = raw.indexOf('\r\n', at);
    const size = Number.parseInt(raw.subarray(at, eol).toString('latin1'), 16);
    if (!(size > 0)) return Buffer.concat(parts);
    parts.push(raw.subarray(eol + 2, eol + 2 + size));
    at = eol + 2 + size + 2;
  }
}
