import { ApiError } from '../contract/errors.ts';

/**
 * Where the service is in its start-up (docs/operations.md "Running"). It listens first; then
 * its OSM store is built if there is none and the tile workers load their code and open the store
 * — until then it cannot build a tile, and a request that reaches the pool waits here
 * ({@link untilServable}) — and then it warms up on whole discarded requests, which the first real
 * request cuts short: from there on real requests warm the code, and the warm-up would only take
 * cores from them. `GET /readyz` answers 503 until the warm-up is over, 200 after.
 */
export class Readiness {
  #phase = 'starting';
  #ready = false;
  #failure: Error | null = null;
  #draining = false;
  readonly #traffic = new AbortController();
  readonly #servable: Promise<void>;
  #open!: () => void;
  #fail!: (err: Error) => void;

  constructor() {
    this.#servable = new Promise<void>((resolve, reject) => {
      this.#open = resolve;
      this.#fail = reject;
    });
    // Nobody may be waiting when start-up fails; the failure is reported by whoever runs it.
    this.#servable.catch(() => {});
  }

  /** A service that has nothing to start (tests that build the app around a ready pool). */
  static ready(): Readiness {
    const r = new Readiness();
    r.servable();
    r.markReady();
    return r;
  }

  /** What the start-up is doing now, for /readyz and the log. */
  get phase(): string {
    return this.#phase;
  }

  get isReady(): boolean {
    return this.#ready;
  }

  /** Aborted by the first request that needs the workers: the warm-up stops there. */
  get trafficSignal(): AbortSignal {
    return this.#traffic.signal;
  }

  enter(phase: string): void {
    this.#phase = phase;
  }

  /** The store is there and the workers run: requests no longer wait. */
  servable(): void {
    this.#open();
  }

  /** The warm-up is over (done, cut short by traffic, or out of time). */
  markReady(): void {
    this.#ready = true;
    this.#phase = 'ready';
  }

  /** The service is stopping: /readyz says 503 again, so a load balancer sends nothing new. */
  markDraining(): void {
    this.#ready = false;
    this.#draining = true;
    this.#phase = 'shutting down';
  }

  /** Start-up failed: waiting requests fail, /readyz stays 503 with the reason. */
  fail(err: Error): void {
    this.#failure = err;
    this.#phase = `failed: ${err.message}`;
    this.#fail(err);
  }

  /** Called by a request before it needs the store and the workers; ends the warm-up on whole requests. */
  untilServable(): Promise<void> {
    this.#traffic.abort(new Error('a request arrived'));
    return this.#servable;
  }

  /** The /readyz answer: null when ready, else the 503 to send. */
  notReadyError(): ApiError | null {
    if (this.#ready) return null;
    const message = this.#failure
      ? `The service failed to start (${this.#failure.message}).`
      : this.#draining
        ? 'The service is shutting down: requests in progress finish, new ones should go to another instance.'
        : `The service is starting (${this.#phase}); requests are accepted and wait until the workers are up, then run slower until it is warm.`;
    return new ApiError('not_ready', message, [{ message: this.#phase, phase: this.#phase }], this.#failure ? {} : { 'Retry-After': '1' });
  }
}
