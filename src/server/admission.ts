import { ApiError } from '../contract/errors.ts';

/**
 * Admission control: at most `maxInFlight` requests run at once and at most `maxQueue` wait;
 * past that — or after waiting `timeoutMs` — the request is turned away with 503 server_busy and
 * a Retry-After header, before anything is reserved or charged.
 *
 * The queue absorbs bursts, but a queue that never drains only adds waiting: under sustained
 * overload every served request would sit behind up to `maxQueue` others (p99 12× the unloaded
 * time in the soak). So the queue is also bounded in time, the way CoDel bounds a router's queue:
 * the wait that matters is that of the request at the head when a slot frees. Once heads have
 * kept coming late — waiting more than `waitShare` of a typical service time — for longer than
 * `standingAfter` typical service times and at least `standingMs` (a standing queue, not a
 * burst), late heads are turned away at their turn instead of being served late, until no head
 * has been late for a whole such period (a single prompt head proves nothing: the turn-aways
 * themselves empty the queue now and then). The typical service time is the median of the last
 * {@link SAMPLES} requests' times in their slot, counting only requests
 * that did their work (`release(true)`; a 402 or a failure leaves at once and would shrink it).
 */
export interface AdmissionOptions {
  maxInFlight: number;
  maxQueue: number;
  /** Longest wait in the queue before 503, ms. */
  timeoutMs: number;
  retryAfterSeconds?: number;
  /** Longest wait in a standing queue, as a share of the typical service time (0.25 by default). */
  waitShare?: number;
  /** Heads waiting over the target for this many typical service times make a standing queue (8 by default)… */
  standingAfter?: number;
  /** …and for at least this long, ms (200 by default: a burst of a few requests is not turned away). */
  standingMs?: number;
  /** Clock, ms (tests pass their own). */
  now?: () => number;
}

const SAMPLES = 32;

export type Release = (worked?: boolean) => void;

interface Waiter {
  grant: () => void;
  turnAway: () => void;
  since: number;
  timer: NodeJS.Timeout;
}

export class Admission {
  private running = 0;
  private waiting: Waiter[] = [];
  /** Since when heads have kept coming late (waited more than the target), or null; and when one last did. */
  private aboveSince: number | null = null;
  private lastAboveAt = 0;
  private readonly serviceMs: number[] = [];
  private nextSample = 0;
  /** Median of `serviceMs`, kept up to date as samples come (once per request), not per look. */
  private typical: number | null = null;
  private readonly retryAfterSeconds: number;
  private readonly waitShare: number;
  private readonly standingAfter: number;
  private readonly standingMs: number;
  private readonly now: () => number;

  constructor(private readonly options: AdmissionOptions) {
    this.retryAfterSeconds = options.retryAfterSeconds ?? 2;
    this.waitShare = options.waitShare ?? 0.25;
    this.standingAfter = options.standingAfter ?? 8;
    this.standingMs = options.standingMs ?? 200;
    this.now = options.now ?? (() => performance.now());
  }

  get inFlight(): number {
    return this.running;
  }
  get queued(): number {
    return this.waiting.length;
  }

  /** Median time of recent requests in their slot, ms; null before any finished. */
  typicalServiceMs(): number | null {
    return this.typical;
  }

  /**
   * Resolves with a release function once the request may run (call it with `true` when the
   * request did its work, so its time teaches the typical service time); rejects with server_busy.
   */
  acquire(signal?: AbortSignal): Promise<Release> {
    if (this.running < this.options.maxInFlight) {
      this.running++;
      return Promise.resolve(this.releaser());
    }
    if (this.waiting.length >= this.options.maxQueue) return Promise.reject(this.busy());
    return new Promise((resolve, reject) => {
      const entry: Waiter = {
        grant: () => {
          settle();
          resolve(this.releaser());
        },
        turnAway: () => {
          settle();
          reject(this.busy());
        },
        since: this.now(),
        timer: setTimeout(() => {
          this.drop(entry);
          entry.turnAway();
        }, this.options.timeoutMs),
      };
      const settle = () => {
        clearTimeout(entry.timer);
        signal?.removeEventListener('abort', onAbort);
      };
      const onAbort = () => {
        this.drop(entry);
        settle();
        reject(new ApiError('server_busy', 'The request was cancelled while waiting.'));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(entry);
    });
  }

  private drop(entry: Waiter): void {
    const i = this.waiting.indexOf(entry);
    if (i >= 0) this.waiting.splice(i, 1);
  }

  private releaser(): Release {
    const start = this.now();
    let released = false;
    return (worked = false) => {
      if (released) return;
      released = true;
      if (worked) this.record(this.now() - start);
      const next = this.nextToServe();
      if (next)
        next.grant(); // the slot passes straight to the next waiter
      else this.running--;
    };
  }

  /** The head of the queue, after turning away those that waited too long in a standing queue. */
  private nextToServe(): Waiter | undefined {
    const now = this.now();
    const typical = this.typical;
    let next = this.waiting.shift();
    if (!next || typical === null) return next;
    const target = this.waitShare * typical;
    // calm for a whole standing period: whatever stood has drained
    if (this.aboveSince !== null && now - this.lastAboveAt > this.standingPeriod()) this.aboveSince = null;
    if (now - next.since <= target) return next;
    this.aboveSince ??= now;
    this.lastAboveAt = now;
    if (now - this.aboveSince < this.standingPeriod()) return next; // maybe a burst: serve it
    while (next && now - next.since > target) {
      next.turnAway();
      next = this.waiting.shift();
    }
    return next;
  }

  /** How long heads must wait over the target before the queue counts as standing, ms. */
  private standingPeriod(): number {
    return Math.max(this.standingMs, this.standingAfter * (this.typical ?? 0));
  }

  private record(ms: number): void {
    this.serviceMs[this.nextSample] = ms;
    this.nextSample = (this.nextSample + 1) % SAMPLES;
    const sorted = [...this.serviceMs].sort((a, b) => a - b);
    this.typical = sorted[sorted.length >> 1];
  }

  private busy(): ApiError {
    return new ApiError('server_busy', 'The server is busy; retry shortly.', [{ message: `in flight ${this.running}, queued ${this.waiting.length}` }], {
      'Retry-After': String(this.retryAfterSeconds),
    });
  }
}
