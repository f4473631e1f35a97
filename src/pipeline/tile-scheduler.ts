/**
 * Fair sharing of the tile pool between requests. Piscina serves tasks first come, first served, so
 * a small request arriving behind a 10 km² one would wait for all of its ~50 tiles. Here each
 * request keeps its own queue and the pool is given at most `slots` tiles at a time (one per
 * worker), taken from the requests in turn: a request's wait does not grow with the size of the
 * requests ahead of it, only with how many are running. A worker is idle between a tile's end and
 * the next one's start only for one main-thread hop, as it would be with piscina's own queue.
 *
 * Taking turns cannot stop a running tile, so a small request that arrives while every worker is
 * on a big request's tile waits for one of them to end — a second or two for a tile of an export
 * with every default group. So while small requests come (one had a tile in the last
 * {@link SMALL_HOLD_MS}), big requests' tiles leave one worker free for theirs; a big request
 * alone still has every worker. Small and big are the pipeline's call: a request of at most
 * {@link SMALL_REQUEST_TILES} tiles that is not an export is small (server/admission.ts keeps
 * admission slots for such requests in the same way).
 *
 * Notes:
 * - Under the overload soak (`npm run soak`), with piscina's queue alone the served p99 was 9× the
 *   unloaded one.
 */
import type { Piscina } from 'piscina';

/** A request of at most this many tiles (and not an export) is small: 0.1 km² touches at most 4. */
export const SMALL_REQUEST_TILES = 4;
/** After a small request's tile, for this long big requests' tiles leave one worker free, ms. */
export const SMALL_HOLD_MS = 5_000;

interface Waiting {
  task: unknown;
  signal: AbortSignal;
  resolve: (value: unknown) => void;
  reject: (reason: unknown) => void;
  onAbort: () => void;
}

/**
 * Asked before each of a request's tiles starts: null when it may start, else a promise that
 * resolves when it may be asked again (its answer waits for a slow client, group-sink.ts).
 */
export type TileHold = () => Promise<void> | null;

/** One request's line of tiles. */
export class TileQueue {
  readonly waiting: Waiting[] = [];
  /** Index of the next tile to hand out (`waiting` is consumed from the front). */
  next = 0;
  /** A hold is pending: the queue is out of the ring until it resolves. */
  private held = false;

  constructor(
    private readonly scheduler: TileScheduler,
    /** A small request's line (see above): its tiles may take the worker big ones leave free. */
    readonly small = false,
    private readonly hold?: TileHold,
  ) {}

  /** Runs `task` on the pool when its turn comes; rejects with the signal's reason if it aborts first. */
  run(task: unknown, signal: AbortSignal): Promise<unknown> {
    if (signal.aborted) return Promise.reject(signal.reason);
    return new Promise((resolve, reject) => {
      const w: Waiting = { task, signal, resolve, reject, onAbort: () => this.drop(w) };
      signal.addEventListener('abort', w.onAbort, { once: true });
      this.waiting.push(w);
      this.scheduler.wake(this);
    });
  }

  get pending(): number {
    return this.waiting.length - this.next;
  }

  /** The next tile to start, or null (none waiting, or held: the queue rejoins the ring when the hold ends). */
  take(): Waiting | null {
    if (this.next >= this.waiting.length || this.held) return null;
    const wait = this.hold?.();
    if (wait) {
      this.held = true;
      void wait.then(() => {
        this.held = false;
        this.scheduler.wake(this);
      });
      return null;
    }
    const w = this.waiting[this.next];
    this.waiting[this.next++] = undefined as never;
    if (this.next > 64 && this.next * 2 > this.waiting.length) {
      this.waiting.splice(0, this.next);
      this.next = 0;
    }
    w.signal.removeEventListener('abort', w.onAbort);
    return w;
  }

  private drop(w: Waiting): void {
    const i = this.waiting.indexOf(w, this.next);
    if (i < 0) return; // already started: piscina aborts it through the same signal
    this.waiting.splice(i, 1);
    w.reject(w.signal.reason);
  }
}

export class TileScheduler {
  /** Requests with tiles waiting, served in turn. */
  private readonly ring: TileQueue[] = [];
  private cursor = 0;
  private running = 0;
  private runningBig = 0;
  /** When a small request last had a tile waiting, ms. */
  private smallSeenAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly pool: Pick<Piscina, 'run'>,
    private readonly slots: number,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** A queue for one request's tiles; `small` for a small request's; with `hold`, each of them starts only when the hold allows. */
  queue(small = false, hold?: TileHold): TileQueue {
    return new TileQueue(this, small, hold);
  }

  /** Tiles handed to the pool and not finished. */
  get inFlight(): number {
    return this.running;
  }

  /** Tiles waiting in the requests' queues for a slot (not those of a request held back by its client's pace). */
  get waiting(): number {
    let n = 0;
    for (const queue of this.ring) n += queue.pending;
    return n;
  }

  /** Called when `queue` got a tile: joins the ring if it was not in it, then fills free slots. */
  wake(queue: TileQueue): void {
    if (queue.small) this.smallSeenAt = this.now();
    if (!this.ring.includes(queue)) this.ring.push(queue);
    this.pump();
  }

  private pump(): void {
    while (this.running < this.slots) {
      const queue = this.nextQueue();
      if (!queue) return;
      const w = queue.take();
      if (!w) {
        // held (its answer waits for the client): out of the ring until the hold ends and wakes it
        this.ring.splice(this.ring.indexOf(queue), 1);
        continue;
      }
      this.cursor++;
      this.running++;
      if (!queue.small) this.runningBig++;
      this.pool
        .run(w.task, { signal: w.signal })
        .then(w.resolve, w.reject)
        .finally(() => {
          this.running--;
          if (!queue.small) this.runningBig--;
          this.pump();
        });
    }
  }

  /** The next request in turn with a tile that may start now; requests with nothing waiting leave the ring. */
  private nextQueue(): TileQueue | null {
    const bigHeld = this.slots > 1 && this.runningBig >= this.slots - 1 && this.now() - this.smallSeenAt < SMALL_HOLD_MS;
    for (let looked = 0; this.ring.length > 0 && looked < this.ring.length; ) {
      if (this.cursor >= this.ring.length) this.cursor = 0;
      const queue = this.ring[this.cursor];
      if (queue.pending === 0) {
        this.ring.splice(this.cursor, 1); // nothing waiting: leaves the ring until its next tile
      } else if (!queue.small && bigHeld) {
        this.cursor++; // the last free worker stays for small requests
        looked++;
      } else {
        return queue;
      }
    }
    return null;
  }
}

const schedulers = new WeakMap<object, TileScheduler>();

/**
 * The scheduler of a pool (one per pool, shared by every request on it): a slot per worker thread.
 * A stand-in pool without thread options (tests) gets no limit: its tasks start at once.
 */
export function schedulerFor(pool: Pick<Piscina, 'run'> & { options?: { maxThreads?: number } }): TileScheduler {
  let s = schedulers.get(pool);
  if (!s) schedulers.set(pool, (s = new TileScheduler(pool, Math.max(1, pool.options?.maxThreads ?? Infinity))));
  return s;
}
