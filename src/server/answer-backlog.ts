/**
 * How much of one answer waits in this process for its client, and the back-pressure that bounds
 * it: the request's next tiles start only while less than the bound waits (GroupSink.whenRoom).
 * Without it a finished request would hold its whole answer in memory for as long as a slow client
 * takes to read it; with it, an answer larger than the bound is computed at the client's pace.
 */
import type { Writable } from 'node:stream';

export class AnswerBacklog {
  /** `streams`: the answer's path to the socket (the gzip stream then the response, or the response). */
  constructor(
    private readonly streams: readonly Writable[],
    private readonly maxBytes: number,
  ) {}

  /** Bytes written to the answer and not yet taken by the socket's kernel buffers. */
  get bytes(): number {
    let n = 0;
    for (const s of this.streams) n += s.writableLength;
    return n;
  }

  private get closed(): boolean {
    return this.streams.some((s) => s.destroyed);
  }

  /** Null below the bound; else resolves when it is worth asking again (a stream drained or closed). */
  whenRoom(): Promise<void> | null {
    if (this.bytes < this.maxBytes || this.closed) return null;
    return this.nextDrain();
  }

  /** Resolves once every byte written so far was taken by the kernel, or a stream closed. */
  async drained(): Promise<void> {
    // 'drain' only follows a write that filled a buffer: a small remainder is polled
    while (this.bytes > 0 && !this.closed) await this.nextDrain(20);
  }

  /** The next 'drain' or 'close' of any of the streams, or `ms` if given. */
  private nextDrain(ms?: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        for (const s of this.streams) {
          s.off('drain', done);
          s.off('close', done);
        }
        resolve();
      };
      const timer = ms === undefined ? undefined : setTimeout(done, ms);
      for (const s of this.streams) {
        s.once('drain', done);
        s.once('close', done);
      }
    });
  }
}
