import { ApiError } from '../contract/errors.ts';
import { AdmissionLane, RecentMedian, type Waiter } from './admission-lane.ts';

/**
 * Admission control: at most `maxInFlight` requests run at once and at most `maxQueue` wait;
 * past that — or after waiting `timeoutMs` — the request is turned away with 503 server_busy and
 * a Retry-After header, before anything is reserved or charged.
 *
 * Requests are admitted by expected cost, in two classes. Exports and requests of at least
 * `largeKm2` are *large*: they hold a slot for seconds to minutes, and first come first served
 * three 10 km² exports made a 100 m request wait 30 s. Large requests may hold at most
 * `maxInFlight − smallSlots` slots, so `smallSlots` are always there for small requests (whose
 * tiles then take turns with the big ones' in the pool, pipeline/tile-scheduler.ts); small ones
 * may take any slot. When a slot frees, the head that came first among those that may take it
 * goes in. Large requests may fill at most half the queue.
 *
 * A request that would certainly wait longer than `timeoutMs` is answered 503 at once rather
 * than after the wait: from what requests of its class have recently cost (large ones per km²,
 * exports and geometry apart), the time until the slots ahead of it and the requests queued
 * before it are done. Nothing is refused early before the server has learned those costs.
 *
 * Each class's queue is also bounded in time (admission-lane.ts).
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
  /** Requests of at least this area, and every export, are large (1 km² by default). */
  largeKm2?: number;
  /** Slots large requests never take (by default a quarter of `maxInFlight`, at least 1; none with one slot). */
  smallSlots?: number;
  /** Clock, ms (tests pass their own). */
  now?: () => number;
}

/** What admission knows of a request's cost before it runs. */
export interface RequestCost {
  areaKm2: number;
  export: boolean;
}

export type Release = (worked?: boolean) => void;

/** Areas below this count as this much when learning and using a large request's cost per km². */
const MIN_RATE_KM2 = 0.25;

export class Admission {
  private running = 0;
  private runningLarge = 0;
  private readonly small: AdmissionLane;
  private readonly large: AdmissionLane;
  /** ms per km² of large requests that did their work: exports, geometry. */
  private readonly rates = { export: new RecentMedian(), geometry: new RecentMedian() };
  /** Expected end of each running large request (null: unknown). */
  private readonly largeEnds = new Set<{ end: number | null }>();
  private readonly retryAfterSeconds: number;
  private readonly largeKm2: number;
  private readonly largeSlots: number;
  private readonly now: () => number;

  constructor(private readonly options: AdmissionOptions) {
    this.retryAfterSeconds = options.retryAfterSeconds ?? 2;
    const lane = { waitShare: options.waitShare ?? 0.25, standingAfter: options.standingAfter ?? 8, standingMs: options.standingMs ?? 200 };
    this.small = new AdmissionLane(lane);
    this.large = new AdmissionLane(lane);
    this.largeKm2 = options.largeKm2 ?? 1;
    const kept = options.smallSlots ?? Math.max(1, Math.floor(options.maxInFlight / 4));
    this.largeSlots = Math.max(1, options.maxInFlight - kept);
    this.now = options.now ?? (() => performance.now());
  }

  get inFlight(): number {
    return this.running;
  }
  get queued(): number {
    return this.small.waiting.length + this.large.waiting.length;
  }

  /** Median time of recent small requests in their slot, ms; null before any finished. */
  typicalServiceMs(): number | null {
    return this.small.serviceMs.value;
  }

  /**
   * Resolves with a release function once the request may run (call it with `true` when the
   * request did its work, so its time teaches the typical service time); rejects with server_busy.
   * Without a `cost` the request is small.
   */
  acquire(signal?: AbortSignal, cost: RequestCost = { areaKm2: 0, export: false }): Promise<Release> {
    const isLarge = cost.export || cost.areaKm2 >= this.largeKm2;
    if (this.running < this.options.maxInFlight && (!isLarge || this.runningLarge < this.largeSlots)) {
      return Promise.resolve(this.take(isLarge, cost));
    }
    const lane = isLarge ? this.large : this.small;
    const laneCap = isLarge ? Math.ceil(this.options.maxQueue / 2) : this.options.maxQueue;
    if (this.queued >= this.options.maxQueue || lane.waiting.length >= laneCap) return Promise.reject(this.busy());
    const wait = isLarge ? this.expectedLargeWait() : this.expectedSmallWait();
    if (wait !== null && wait > this.options.timeoutMs) {
      const seconds = Math.ceil((wait - this.options.timeoutMs) / 1000);
      return Promise.reject(this.busy(Math.min(300, Math.max(this.retryAfterSeconds, seconds)), `expected wait ${Math.round(wait)} ms`));
    }
    return new Promise((resolve, reject) => {
      const entry: Waiter = {
        grant: () => {
          settle();
          resolve(this.take(isLarge, cost));
        },
        turnAway: () => {
          settle();
          reject(this.busy());
        },
        since: this.now(),
        cost,
        timer: setTimeout(() => {
          lane.drop(entry);
          entry.turnAway();
        }, this.options.timeoutMs),
      };
      const settle = () => {
        clearTimeout(entry.timer);
        signal?.removeEventListener('abort', onAbort);
      };
      const onAbort = () => {
        lane.drop(entry);
        settle();
        reject(new ApiError('server_busy', 'The request was cancelled while waiting.'));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      lane.waiting.push(entry);
    });
  }

  /** Counts the request in and returns its release. */
  private take(isLarge: boolean, cost: RequestCost): Release {
    const start = this.now();
    this.running++;
    const expectedMs = isLarge ? this.expectedLargeMs(cost) : null;
    const ends = { end: expectedMs === null ? null : start + expectedMs };
    if (isLarge) {
      this.runningLarge++;
      this.largeEnds.add(ends);
    }
    let released = false;
    return (worked = false) => {
      if (released) return;
      released = true;
      const ms = this.now() - start;
      if (worked && isLarge) this.rates[cost.export ? 'export' : 'geometry'].add(ms / Math.max(MIN_RATE_KM2, cost.areaKm2));
      if (worked) (isLarge ? this.large : this.small).serviceMs.add(ms);
      this.running--;
      if (isLarge) {
        this.runningLarge--;
        this.largeEnds.delete(ends);
      }
      this.nextToServe()?.grant(); // the slot passes straight to the next waiter
    };
  }

  /** Takes the head that came first among the classes that may take a free slot off its queue. */
  private nextToServe(): Waiter | undefined {
    if (this.running >= this.options.maxInFlight) return undefined;
    const now = this.now();
    const small = this.small.head(now);
    const large = this.runningLarge < this.largeSlots ? this.large.head(now) : undefined;
    if (!small && !large) return undefined;
    const lane = !large || (small && small.since <= large.since) ? this.small : this.large;
    return lane.waiting.shift();
  }

  /** A large request's expected time in its slot, ms, or null before its kind has a cost. */
  private expectedLargeMs(cost: RequestCost): number | null {
    const rate = this.rates[cost.export ? 'export' : 'geometry'].value;
    return rate === null ? null : rate * Math.max(MIN_RATE_KM2, cost.areaKm2);
  }

  /**
   * When a large request queued now would start, ms from now: the large slots free as the
   * running large requests end, and each takes the next large request queued. Null when a cost
   * on the way is unknown. Small requests holding slots are short and not counted.
   */
  private expectedLargeWait(): number | null {
    const now = this.now();
    const free: number[] = [];
    for (const { end } of this.largeEnds) {
      if (end === null) return null;
      free.push(Math.max(0, end - now));
    }
    while (free.length < this.largeSlots) free.push(0);
    for (const waiter of this.large.waiting) {
      const expected = this.expectedLargeMs(waiter.cost);
      if (expected === null) return null;
      free.sort((a, b) => a - b);
      free[0] += expected;
    }
    return Math.min(...free);
  }

  /** When a small request queued now would start, ms from now, or null before small requests have a cost. */
  private expectedSmallWait(): number | null {
    const typical = this.small.serviceMs.value;
    if (typical === null) return null;
    const slots = Math.max(1, this.options.maxInFlight - this.runningLarge);
    return Math.ceil((this.small.waiting.length + 1) / slots) * typical;
  }

  private busy(retryAfterSeconds = this.retryAfterSeconds, why?: string): ApiError {
    const state = `in flight ${this.running} (${this.runningLarge} large), queued ${this.queued}${why ? `; ${why}` : ''}`;
    return new ApiError('server_busy', 'The server is busy; retry shortly.', [{ message: state }], { 'Retry-After': String(retryAfterSeconds) });
  }
}
