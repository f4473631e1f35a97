/**
 * The usage ledger and the credit it holds. A request reserves its cost before work starts
 * (one ledger row, status `reserved`, and `accounts.reserved_m2` raised), then either commits
 * (charged) or is released (failed/aborted, not charged). Every state change is a conditional
 * UPDATE inside an IMMEDIATE transaction, so it is atomic even when processes share the file.
 */
import { randomUUID } from 'node:crypto';
import { duplicateRequest, refusal, toUsageRow, type AccountFunds, type LedgerRecord } from './records.ts';
import { Reservation, type LedgerSettlement } from './reservation.ts';
import type { Db } from './sqlite-db.ts';
import type { AuthContext, UsageRow, UsageStatus } from './types.ts';
import { costM2ForArea, km2ToM2, m2ToKm2, MIN_COST_M2 } from './units.ts';

/** Sorts after every ISO-8601 timestamp. */
const END_OF_TIME = '9999-12-31T23:59:59.999Z';

interface Settled {
  account_id: number;
  reserved_m2: number;
}

/** Prepared statements and transactions over one connection. */
export class SqliteLedger implements LedgerSettlement {
  readonly #now: () => string;
  readonly #hold;
  readonly #funds;
  readonly #insert;
  readonly #settle;
  readonly #unhold;
  readonly #openRows;
  readonly #usage;
  readonly #reserveTx;
  readonly #settleTx;
  readonly #releaseStaleTx;
  readonly #refund;
  readonly #refundTx;

  readonly #owner: string;

  /** `owner` is written on every reservation this ledger makes (see lease.ts). */
  constructor(db: Db, now: () => string, owner: string) {
    this.#now = now;
    this.#owner = owner;
    this.#hold = db.prepare<{ id: number; cost: number }>(
      `UPDATE accounts SET reserved_m2 = reserved_m2 + @cost
        WHERE id = @id AND status = 'active' AND balance_m2 - reserved_m2 >= @cost`,
    );
    this.#funds = db.prepare<[number], AccountFunds>('SELECT status, balance_m2, reserved_m2 FROM accounts WHERE id = ?');
    this.#insert = db.prepare(
      `INSERT INTO usage_ledger (key_id, account_id, area_m2, reserved_m2, status, started_at, owner, request_id)
       VALUES (@keyId, @accountId, @area, @cost, 'reserved', @now, @owner, @requestId)`,
    );
    // Only a row still `reserved` can be settled: this condition is what makes commit/release idempotent.
    this.#settle = db.prepare<{ id: number; status: UsageStatus; charged: 0 | 1; now: string }, Settled>(
      `UPDATE usage_ledger
          SET status = @status, cost_m2 = CASE WHEN @charged THEN reserved_m2 ELSE 0 END, finished_at = @now
        WHERE id = @id AND status = 'reserved'
        RETURNING account_id, reserved_m2`,
    );
    this.#unhold = db.prepare<{ id: number; held: number; charge: number }>(
      `UPDATE accounts SET reserved_m2 = reserved_m2 - @held, balance_m2 = balance_m2 - @charge WHERE id = @id`,
    );
    // @live: a JSON array of owners whose holds stay (null = release regardless of owner).
    this.#openRows = db.prepare<{ before: string; now: string; live: string | null }, Settled>(
      `UPDATE usage_ledger SET status = 'aborted', cost_m2 = 0, finished_at = @now
        WHERE status = 'reserved' AND started_at < @before
          AND (@live IS NULL OR owner IS NULL OR owner NOT IN (SELECT value FROM json_each(@live)))
        RETURNING account_id, reserved_m2`,
    );
    // A charge taken back: only a charged `completed` row, once (the status change is the guard).
    this.#refund = db.prepare<{ id: number; now: string }, Settled>(
      `UPDATE usage_ledger SET status = 'aborted', cost_m2 = 0, finished_at = @now
        WHERE id = @id AND status = 'completed' AND cost_m2 > 0
        RETURNING account_id, reserved_m2`,
    );
    this.#usage = db.prepare<{ accountId: number; limit: number }, LedgerRecord>(
      'SELECT * FROM usage_ledger WHERE account_id = @accountId ORDER BY id DESC LIMIT @limit',
    );

    this.#reserveTx = db.transaction((auth: AuthContext, areaM2: number, costM2: number, requestId: string): number => {
      if (this.#hold.run({ id: auth.accountId, cost: costM2 }).changes === 0) {
        throw refusal(this.#funds.get(auth.accountId), costM2);
      }
      try {
        const row = { keyId: auth.keyId, accountId: auth.accountId, area: areaM2, cost: costM2, now: this.#now(), owner: this.#owner, requestId };
        return Number(this.#insert.run(row).lastInsertRowid);
      } catch (err) {
        // the hold above is rolled back with the transaction
        if ((err as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE') throw duplicateRequest(requestId);
        throw err;
      }
    });
    this.#settleTx = db.transaction((id: number, status: Exclude<UsageStatus, 'reserved'>, charged: boolean): boolean => {
      const row = this.#settle.get({ id, status, charged: charged ? 1 : 0, now: this.#now() });
      if (!row) return false;
      const charge = charged ? row.reserved_m2 : 0;
      this.#unhold.run({ id: row.account_id, held: row.reserved_m2, charge });
      return true;
    });
    this.#refundTx = db.transaction((id: number): boolean => {
      const row = this.#refund.get({ id, now: this.#now() });
      if (!row) return false;
      this.#unhold.run({ id: row.account_id, held: 0, charge: -row.reserved_m2 });
      return true;
    });
    this.#releaseStaleTx = db.transaction((before: string, live: string[] | null): number => {
      const rows = this.#openRows.all({ before, now: this.#now(), live: live && JSON.stringify(live) });
      for (const row of rows) this.#unhold.run({ id: row.account_id, held: row.reserved_m2, charge: 0 });
      return rows.length;
    });
  }

  /**
   * Holds max(area, 0.01) km² of the caller's balance, or throws the 402 that explains why not.
   * `free`: a request that costs nothing (no source has data for it) — held and refused like any
   * other (the ledger's rows always hold something), but committed at cost 0.
   */
  reserve(auth: AuthContext, areaKm2: number, free = false, requestId: string = randomUUID()): Reservation {
    const costM2 = costM2ForArea(areaKm2);
    const areaM2 = km2ToM2(areaKm2);
    const id: number = this.#reserveTx.immediate(auth, areaM2, costM2, requestId);
    return new Reservation(this, { id, requestId }, auth, m2ToKm2(areaM2), free ? 0 : m2ToKm2(costM2));
  }

  /**
   * Throws the 402 `reserve` would throw for the smallest possible request (inactive plan, or less
   * than 0.01 km² available): checked before a body is read, so a client that can pay for nothing
   * costs the server nothing.
   */
  precheck(auth: AuthContext): void {
    const funds = this.#funds.get(auth.accountId);
    if (!funds || funds.status !== 'active' || funds.balance_m2 - funds.reserved_m2 < MIN_COST_M2) throw refusal(funds, MIN_COST_M2);
  }

  async refund(id: number): Promise<boolean> {
    return this.#refundTx.immediate(id);
  }

  async settle(id: number, status: Exclude<UsageStatus, 'reserved'>, charged: boolean): Promise<boolean> {
    return this.#settleTx.immediate(id, status, charged && status === 'completed');
  }

  /**
   * Aborts (uncharged) open reservations started before `before` (ISO time; any time when omitted)
   * whose owner is not in `liveOwners` (null: whatever the owner). Returns how many.
   */
  releaseStale(before: string | undefined, liveOwners: string[] | null): number {
    return this.#releaseStaleTx.immediate(before ?? END_OF_TIME, liveOwners);
  }

  usage(accountId: number, limit: number): UsageRow[] {
    return this.#usage.all({ accountId, limit }).map(toUsageRow);
  }
}
