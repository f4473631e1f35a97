/** Credit held for one request, whichever store holds it. */
import type { AuthContext, UsageStatus } from './types.ts';

export type ReleaseStatus = 'failed' | 'aborted';

/** What a reservation asks of its store's ledger; each call is one atomic, conditional change. */
export interface LedgerSettlement {
  /** Moves a `reserved` row to its final status (charged: a completed row that is not free); false when it was settled already. */
  settle(id: number, status: Exclude<UsageStatus, 'reserved'>, charged: boolean): Promise<boolean>;
  /** Takes back a charge (completed → aborted, cost 0); false when the row was not a charged completed one. */
  refund(id: number): Promise<boolean>;
}

/**
 * Settle it exactly once when the request ends; further calls (and a commit after a release, or
 * the reverse) are harmless no-ops that resolve false.
 */
export class Reservation {
  readonly #ledger: LedgerSettlement;
  /** The ledger row. */
  readonly id: number;
  /** The request's id, unique in the ledger. */
  readonly requestId: string;
  readonly keyId: number;
  readonly accountId: number;
  readonly areaKm2: number;
  /** What the request costs: 0 for a free one (its hold is still the usual cost). */
  readonly costKm2: number;
  #settled = false;

  constructor(ledger: LedgerSettlement, row: { id: number; requestId: string }, auth: AuthContext, areaKm2: number, costKm2: number) {
    this.#ledger = ledger;
    this.id = row.id;
    this.requestId = row.requestId;
    this.keyId = auth.keyId;
    this.accountId = auth.accountId;
    this.areaKm2 = areaKm2;
    this.costKm2 = costKm2;
  }

  /** The response completed: charge the cost (0 for a free request). True if this call settled it. */
  commit(): Promise<boolean> {
    return this.#finish('completed');
  }

  /** The request failed or was aborted: give the credit back, charge nothing. True if this call released it. */
  release(status: ReleaseStatus = 'failed'): Promise<boolean> {
    if (status !== 'failed' && status !== 'aborted') return Promise.reject(new RangeError(`Not a release status: ${String(status)}`));
    return this.#finish(status);
  }

  /**
   * The client turned out not to have received the response it was charged for (its connection
   * was reset right after the last byte was handed to the kernel): the charge is returned and the
   * row becomes `aborted`. True if this call refunded it.
   */
  refund(): Promise<boolean> {
    return this.#ledger.refund(this.id);
  }

  /** True once commit or release has been called (in this process). */
  get settled(): boolean {
    return this.#settled;
  }

  #finish(status: Exclude<UsageStatus, 'reserved'>): Promise<boolean> {
    if (this.#settled) return Promise.resolve(false);
    this.#settled = true;
    // The database decides: a row released by another process (e.g. stale cleanup) stays uncharged.
    return this.#ledger.settle(this.id, status, status === 'completed' && this.costKm2 > 0);
  }
}
