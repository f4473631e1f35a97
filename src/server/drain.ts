/**
 * The requests a server is working on, for a graceful shutdown (docs/operations.md "Stopping"):
 * once {@link RequestDrain.begin} is called every response closes its connection after it, and
 * {@link RequestDrain.settled} says when the last handler has returned — by then each has
 * committed, released or refunded its reservation.
 */
export class RequestDrain {
  readonly #active = new Set<Promise<unknown>>();
  #closing = false;

  /** Follows one request's handler until it settles. */
  track(handler: Promise<unknown>): void {
    const settled = handler.then(
      () => {},
      () => {},
    );
    this.#active.add(settled);
    settled.then(() => this.#active.delete(settled));
  }

  /** Handlers not yet returned. */
  get active(): number {
    return this.#active.size;
  }

  get closing(): boolean {
    return this.#closing;
  }

  /** From now on responses close their connections (no keep-alive: the process is going away). */
  begin(): void {
    this.#closing = true;
  }

  /** Resolves true once no handler runs, or false after `timeoutMs` if some still do. */
  async settled(timeoutMs: number): Promise<boolean> {
    const until = Date.now() + timeoutMs;
    while (this.#active.size > 0) {
      const left = until - Date.now();
      if (left <= 0) return false;
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([Promise.all(this.#active), new Promise((r) => (timer = setTimeout(r, left)))]);
      clearTimeout(timer);
    }
    return true;
  }
}
