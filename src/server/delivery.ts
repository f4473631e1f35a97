/**
 * Did the client get the response? Two watches on a streamed answer:
 * a client that stops reading is cut off once nothing moves for a while, and a client whose
 * connection is reset just after the last byte left for the kernel gets its charge back.
 */
import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

export interface SlowReaderWatch {
  stop(): void;
  /** True once the response was cut: it must not count as delivered, whatever Node reports. */
  readonly cut: boolean;
}

/**
 * Bytes of `socket`'s output the kernel has taken. Node's `bytesWritten` counts what was handed to
 * the socket, queued bytes included, and a write completes only once the kernel took all of it
 * (one corked answer can be a single 10 MB write), so neither moves while a slow client reads;
 * what libuv dispatched minus what it still queues does, by a third of the socket's send buffer
 * at a time (the kernel wakes a writer then).
 */
export function bytesAccepted(socket: Socket): number {
  const s = socket as Socket & { _bytesDispatched?: number; _handle?: { writeQueueSize?: number } | null };
  if (typeof s._bytesDispatched !== 'number') return socket.bytesWritten - socket.writableLength;
  return s._bytesDispatched - (s._handle?.writeQueueSize ?? 0);
}

/**
 * Destroys `res` when data waits to be sent but the kernel has not taken a byte of it for
 * `timeoutMs` (a client that stopped reading holds its reservation, memory and file handles
 * otherwise). A client that keeps reading, however slowly, is never cut; time spent computing
 * with nothing to send never counts.
 */
export function watchSlowReader(res: ServerResponse, timeoutMs: number, onCut: () => void): SlowReaderWatch {
  const socket = res.socket;
  const watch = { stop: () => {}, cut: false };
  if (!socket) return watch;
  let accepted = bytesAccepted(socket);
  let lastProgress = performance.now();
  const timer = setInterval(
    () => {
      const now = performance.now();
      const waiting = res.writableLength > 0 || socket.writableLength > 0;
      const taken = bytesAccepted(socket);
      if (!waiting || taken !== accepted) {
        accepted = taken;
        lastProgress = now;
      } else if (now - lastProgress >= timeoutMs) {
        stop();
        watch.cut = true;
        onCut();
        res.destroy(new Error(`the client read nothing for ${timeoutMs} ms`));
      }
    },
    Math.max(10, Math.min(1000, Math.floor(timeoutMs / 4))),
  );
  timer.unref();
  const stop = () => clearInterval(timer);
  watch.stop = stop;
  res.once('close', stop);
  return watch;
}

/**
 * Sends a small answer with `send` (which returns its body's size) and resolves once the kernel
 * took it; rejects when the connection closed first or the bytes never reached the kernel. Node
 * emits 'finish' even for a write that failed because the socket had just been destroyed, so the
 * kernel's count is what decides.
 */
export function sendAndConfirm(res: ServerResponse, send: () => number): Promise<void> {
  const socket = res.socket;
  const mark = socket ? bytesAccepted(socket) : 0;
  const bytes = send();
  const notSent = () => new Error('the connection closed before the answer was sent');
  return new Promise((resolve, reject) => {
    const check = () => (socket && bytesAccepted(socket) - mark >= bytes ? resolve() : reject(notSent()));
    if (res.writableFinished) return check();
    res.once('finish', check);
    res.once('close', () => (res.writableFinished ? check() : reject(notSent())));
  });
}

/** The delivery watch running on each socket (one at a time: see below). */
const watching = new WeakMap<Socket, () => void>();

/**
 * After a response finished: calls `onReset` if its connection fails (reset, broken pipe) within
 * `windowMs` — the client's kernel resets a connection closed with unread data, so the tail it was
 * charged for never reached it. A clean close, a quiet window, or the next response on the same
 * connection (the client asked again, so it read this answer) ends the watch. `socket` is the
 * response's, taken before it finished (Node detaches it from the response at 'finish'); one that
 * already failed calls `onReset` at once.
 */
export function watchDelivery(socket: Socket | null, windowMs: number, onReset: (err: Error) => void): void {
  if (!socket) return;
  if (socket.destroyed) {
    if (socket.errored) onReset(socket.errored);
    return;
  }
  watching.get(socket)?.();
  const done = () => {
    clearTimeout(timer);
    socket.off('error', onError);
    socket.off('close', done);
    if (watching.get(socket) === done) watching.delete(socket);
  };
  const onError = (err: Error) => {
    done();
    onReset(err);
  };
  const timer = setTimeout(done, windowMs);
  timer.unref();
  socket.on('error', onError);
  socket.once('close', done);
  watching.set(socket, done);
}

/**
 * Keeps a connection that closes after this response (`Connection: close`, HTTP/1.0) open for
 * reading during `windowMs` after the server's FIN, instead of closing it as soon as the FIN is
 * out as Node does: a client that read only part of the answer resets the connection when it
 * closes, and only an open socket sees that reset (watchDelivery then refunds). The socket closes
 * at the client's own FIN (it read everything), its reset, or the end of the window.
 * Call before the response ends; a kept-alive connection is not affected.
 */
export function holdClosingConnection(res: ServerResponse, windowMs: number): void {
  const socket = res.socket as (Socket & { destroySoon?: () => void }) | null;
  if (!socket || Object.hasOwn(socket, 'destroySoon')) return;
  // Node's server calls destroySoon() once the last response of a closing connection finished.
  socket.destroySoon = () => {
    if (socket.writable) socket.end();
    const timer = setTimeout(() => socket.destroy(), windowMs);
    timer.unref();
    socket.once('close', () => clearTimeout(timer));
  };
}

/** Ends the delivery watch of the connection's previous response: a new request came on it. */
export function endDeliveryWatch(socket: Socket): void {
  watching.get(socket)?.();
}
