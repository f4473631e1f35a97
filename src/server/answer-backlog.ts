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

  /**
   * Null below the bound; else resolves at the next 'drain' (some stream emptied: ask again) or
   * 'close' (the client is gone: the request ends on its own).
   */
  whenRoom(): Promise<void> | null {
    if (this.bytes < this.maxBytes || this.streams.some((s) => s.destroyed)) return null;
    return new Promise((resolve) => {
      const done = () => {
        for (const s of this.streams) {
          s.off('drain', done);
          s.off('close', done);
        }
        resolve();
      };
      for (const s of this.streams) {
        s.once('drain', done);
        s.once('close', done);
      }
    });
  }
}
