/**
 * Hands tile results over in task order while the tiles finish in any order (an `ordered` sink,
 * group-sink.ts): a finished result is held until every task before it has been handed over.
 * So that a slow early tile cannot make the main thread hold the whole request, a task starts only
 * when it lies less than `window` tasks beyond the first one not yet handed over.
 *
 *   const order = new TaskOrder(tasks.length, 4 * threads, (n, result) => take(tasks[n], result));
 *   await order.admit(n); const result = await run(tasks[n]); order.done(n, result);
 */
export class TaskOrder<T> {
  private readonly held: (T | undefined)[] = [];
  private next = 0;
  private readonly waiting = new Map<number, () => void>();

  constructor(
    private readonly count: number,
    private readonly window: number,
    private readonly hand: (n: number, value: T) => void,
  ) {}

  /** Resolves when task `n` may start. */
  admit(n: number): Promise<void> {
    if (n < this.next + this.window) return Promise.resolve();
    return new Promise((resolve) => this.waiting.set(n, resolve));
  }

  /** Task `n` is done: hands over every result now next in line, then lets the tasks the window reaches start. */
  done(n: number, value: T): void {
    this.held[n] = value;
    while (this.next < this.count && this.held[this.next] !== undefined) {
      const v = this.held[this.next]!;
      this.held[this.next] = undefined;
      this.hand(this.next++, v);
    }
    for (const [k, start] of this.waiting)
      if (k < this.next + this.window) {
        this.waiting.delete(k);
        start();
      }
  }

  /** Lets every waiting task go (the request is cancelled: each sees that and stops). */
  releaseAll(): void {
    for (const start of this.waiting.values()) start();
    this.waiting.clear();
  }
}
