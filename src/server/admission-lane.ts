/**
 * One class of requests waiting for admission (admission.ts): its queue, bounded in time the way
 * CoDel bounds a router's queue, and what its requests have cost.
 *
 * The queue absorbs bursts, but a queue that never drains only adds waiting: under sustained
 * overload every served request would sit behind up to `maxQueue` others (p99 12× the unloaded
 * time in the soak). The wait that matters is that of the request at the head when a slot frees.
 * Once heads have kept coming late — waiting more than `waitShare` of a typical service time —
 * for longer than `standingAfter` typical service times and at least `standingMs` (a standing
 * queue, not a burst), late heads are turned away at their turn instead of being served late,
 * until no head has been late for a whole such period (a single prompt head proves nothing: the
 * turn-aways themselves empty the queue now and then). The typical service time is the median of
 * the last {@link SAMPLES} requests' times in their slot, counting only requests that did their
 * work (a 402 or a failure leaves at once and would shrink it).
 */

export interface LaneOptions {
  waitShare: number;
  standingAfter: number;
  standingMs: number;
}

export interface Waiter {
  grant: () => void;
  turnAway: () => void;
  since: number;
  /** Its area and kind: what its time in a slot is expected from. */
  cost: { areaKm2: number; export: boolean };
  timer: NodeJS.Timeout;
}

const SAMPLES = 32;

/** The median of the last {@link SAMPLES} values added, kept up to date as they come. */
export class RecentMedian {
  readonly #values: number[] = [];
  #next = 0;
  #median: number | null = null;

  add(value: number): void {
    this.#values[this.#next] = value;
    this.#next = (this.#next + 1) % SAMPLES;
    const sorted = [...this.#values].sort((a, b) => a - b);
    this.#median = sorted[sorted.length >> 1];
  }

  get value(): number | null {
    return this.#median;
  }
}

export class AdmissionLane {
  readonly waiting: Waiter[] = [];
  /** Time in the slot of the requests that did their work, ms. */
  readonly serviceMs = new RecentMedian();
  /** Since when heads have kept coming late (waited more than the target), or null; and when one last did. */
  #aboveSince: number | null = null;
  #lastAboveAt = 0;

  constructor(private readonly options: LaneOptions) {}

  drop(entry: Waiter): void {
    const i = this.waiting.indexOf(entry);
    if (i >= 0) this.waiting.splice(i, 1);
  }

  /**
   * The request whose turn it is, left in the queue, after turning away those that waited too
   * long in a standing queue. Call only when a slot is there for it.
   */
  head(now: number): Waiter | undefined {
    const typical = this.serviceMs.value;
    let next = this.waiting[0];
    if (!next || typical === null) return next;
    const target = this.options.waitShare * typical;
    // calm for a whole standing period: whatever stood has drained
    if (this.#aboveSince !== null && now - this.#lastAboveAt > this.#standingPeriod()) this.#aboveSince = null;
    if (now - next.since <= target) return next;
    this.#aboveSince ??= now;
    this.#lastAboveAt = now;
    if (now - this.#aboveSince < this.#standingPeriod()) return next; // maybe a burst: serve it
    while (next && now - next.since > target) {
      this.waiting.shift();
      next.turnAway();
      next = this.waiting[0];
    }
    return next;
  }

  /** How long heads must wait over the target before the queue counts as standing, ms. */
  #standingPeriod(): number {
    return Math.max(this.options.standingMs, this.options.standingAfter * (this.serviceMs.value ?? 0));
  }
}
