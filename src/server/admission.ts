import { ApiError } from '../contract/errors.ts';

/**
 * Admission control: at most `maxInFlight` requests run at once and at most `maxQueue` wait.
 * Past that — or after waiting `timeoutMs` — the request is turned away with 503 server_busy and
 * a Retry-After header, before anything is reserved or charged.
 */
export class Admission {
  private running = 0;
  private waiting: { grant: () => void; timer: NodeJS.Timeout }[] = [];

  constructor(
    private readonly maxInFlight: number,
    private readonly maxQueue: number,
    private readonly timeoutMs: number,
    private readonly retryAfterSeconds = 2,
  ) {}

  get inFlight(): number { return this.running; }
  get queued(): number { return this.waiting.length; }

  /** Resolves with a release function once the request may run; rejects with server_busy. */
  acquire(signal?: AbortSignal): Promise<() => void> {
    if (this.running < this.maxInFlight) {
      this.running++;
      return Promise.resolve(this.releaser());
    }
    if (this.waiting.length >= this.maxQueue) return Promise.reject(this.busy());
    return new Promise((resolve, reject) => {
      const entry = {
        grant: () => { clearTimeout(entry.timer); signal?.removeEventListener('abort', onAbort); resolve(this.releaser()); },
        timer: setTimeout(() => { this.drop(entry); reject(this.busy()); }, this.timeoutMs),
      };
      const onAbort = () => { this.drop(entry); clearTimeout(entry.timer); reject(new ApiError('server_busy', 'The request was cancelled while waiting.')); };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(entry);
    });
  }

  private drop(entry: { grant: () => void; timer: NodeJS.Timeout }): void {
    const i = this.waiting.indexOf(entry);
    if (i >= 0) this.waiting.splice(i, 1);
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      if (next) next.grant(); // the slot passes straight to the next waiter
      else this.running--;
    };
  }

  private busy(): ApiError {
    return new ApiError('server_busy', 'The server is busy; retry shortly.', [
      { message: `in flight ${this.running}, queued ${this.waiting.length}` },
    ], { 'Retry-After': String(this.retryAfterSeconds) });
  }
}
