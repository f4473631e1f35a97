/**
 * The usage ledger on PostgreSQL, shared by many nodes. Each state change is one statement (a
 * data-modifying CTE), so it is atomic without a client-side transaction: the conditional UPDATE of
 * the account row takes its row lock, and under READ COMMITTED a waiting UPDATE re-checks
 * `balance_m2 - reserved_m2 >= cost` on the row as the lock holder left it, so concurrent nodes
 * can never hold more than the balance (the CHECK on the table is the last line). A ledger row
 * leaves `reserved` once (the status condition), so a request is charged at most once, and its
 * request id is UNIQUE, so it cannot be reserved twice.
 */
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { duplicateRequest, refusal, toUsageRow, type AccountFunds, type LedgerRecord } from './records.ts';
import { Reservation, type LedgerSettlement } from './reservation.ts';
import type { AuthContext, UsageRow, UsageStatus } from './types.ts';
import { costM2ForArea, km2ToM2, m2ToKm2, MIN_COST_M2 } from './units.ts';

const UNIQUE_VIOLATION = '23505';

export class PostgresLedger implements LedgerSettlement {
  readonly #pool: pg.Pool;
  readonly #now: () => Date;
  readonly #owner: string;
  /**
   * Holds of this node the database may still have although no request will settle them: a
   * reserve whose answer was lost (the database may have run it) or a settle that failed. This
   * node's lease keeps them from other nodes' sweeps, so its own sweep releases them, uncharged,
   * once the database answers again.
   */
  readonly #unsettled = { ids: new Set<number>(), requestIds: new Set<string>() };

  constructor(pool: pg.Pool, now: () => Date, owner: string) {
    this.#pool = pool;
    this.#now = now;
    this.#owner = owner;
  }

  async reserve(auth: AuthContext, areaKm2: number, free: boolean, requestId: string = randomUUID()): Promise<Reservation> {
    const costM2 = costM2ForArea(areaKm2);
    const areaM2 = km2ToM2(areaKm2);
    let rows: { id: number }[];
    try {
      ({ rows } = await this.#pool.query<{ id: number }>(
        `WITH hold AS (
           UPDATE accounts SET reserved_m2 = reserved_m2 + $3
            WHERE id = $2 AND status = 'active' AND balance_m2 - reserved_m2 >= $3
           RETURNING id)
         INSERT INTO usage_ledger (request_id, key_id, account_id, area_m2, reserved_m2, status, started_at, owner)
         SELECT $5, $1, hold.id, $4, $3, 'reserved', $6, $7 FROM hold
         RETURNING id`,
        [auth.keyId, auth.accountId, costM2, areaM2, requestId, this.#now(), this.#owner],
      ));
    } catch (err) {
      if ((err as { code?: string }).code === UNIQUE_VIOLATION) throw duplicateRequest(requestId);
      this.#unsettled.requestIds.add(requestId);
      throw err;
    }
    if (rows.length === 0) throw refusal(await this.#funds(auth.accountId), costM2);
    return new Reservation(this, { id: rows[0]!.id, requestId }, auth, m2ToKm2(areaM2), free ? 0 : m2ToKm2(costM2));
  }

  /** Rejects with the 402 `reserve` would give the smallest request (see AccountStore.assertCanPay). */
  async precheck(auth: AuthContext): Promise<void> {
    const funds = await this.#funds(auth.accountId);
    if (!funds || funds.status !== 'active' || funds.balance_m2 - funds.reserved_m2 < MIN_COST_M2) throw refusal(funds, MIN_COST_M2);
  }

  async settle(id: number, status: Exclude<UsageStatus, 'reserved'>, charged: boolean): Promise<boolean> {
    const { rowCount } = await this.#noting(
      id,
      this.#pool.query(
        `WITH done AS (
         UPDATE usage_ledger
            SET status = $2, cost_m2 = CASE WHEN $3 THEN reserved_m2 ELSE 0 END, finished_at = $4
          WHERE id = $1 AND status = 'reserved'
         RETURNING account_id, reserved_m2, cost_m2)
       UPDATE accounts a SET reserved_m2 = a.reserved_m2 - done.reserved_m2, balance_m2 = a.balance_m2 - done.cost_m2
         FROM done WHERE a.id = done.account_id`,
        [id, status, charged && status === 'completed', this.#now()],
      ),
    );
    return rowCount === 1;
  }

  async refund(id: number): Promise<boolean> {
    const { rowCount } = await this.#pool.query(
      `WITH back AS (
         UPDATE usage_ledger SET status = 'aborted', cost_m2 = 0, finished_at = $2
          WHERE id = $1 AND status = 'completed' AND cost_m2 > 0
         RETURNING account_id, reserved_m2)
       UPDATE accounts a SET balance_m2 = a.balance_m2 + back.reserved_m2 FROM back WHERE a.id = back.account_id`,
      [id, this.#now()],
    );
    return rowCount === 1;
  }

  /**
   * Aborts (uncharged) open reservations started before `before` (any time when null) whose owner
   * holds no live lease (`anyOwner`: whoever holds them). This node counts as live whatever its
   * lease row says. Rows another node is settling right now are skipped (SKIP LOCKED), not waited
   * for; two sweepers never deadlock. Returns how many.
   */
  async releaseStale(before: Date | null, anyOwner: boolean): Promise<number> {
    const now = this.#now();
    const { rows } = await this.#pool.query<{ n: number }>(
      `WITH gone AS (
         SELECT id FROM usage_ledger
          WHERE status = 'reserved' AND ($1::timestamptz IS NULL OR started_at < $1)
            AND ($2 OR owner IS NULL OR (owner <> $4 AND owner NOT IN (SELECT owner FROM ledger_owners WHERE expires_at > $3)))
          ORDER BY id FOR UPDATE SKIP LOCKED),
       freed AS (
         UPDATE usage_ledger u SET status = 'aborted', cost_m2 = 0, finished_at = $3
           FROM gone WHERE u.id = gone.id AND u.status = 'reserved'
         RETURNING u.account_id, u.reserved_m2),
       per_account AS (SELECT account_id, sum(reserved_m2) AS held, count(*) AS n FROM freed GROUP BY account_id)
       UPDATE accounts a SET reserved_m2 = a.reserved_m2 - per_account.held
         FROM per_account WHERE a.id = per_account.account_id
       RETURNING per_account.n`,
      [before, anyOwner, now, this.#owner],
    );
    if (!anyOwner) await this.#pool.query('DELETE FROM ledger_owners WHERE expires_at <= $1 AND owner <> $2', [now, this.#owner]);
    const own = anyOwner ? 0 : await this.#releaseUnsettled();
    return own + rows.reduce((sum, r) => sum + Number(r.n), 0);
  }

  /** Releases (aborted, uncharged) this node's holds that no request will settle; see #unsettled. */
  async #releaseUnsettled(): Promise<number> {
    const { ids, requestIds } = this.#unsettled;
    if (ids.size === 0 && requestIds.size === 0) return 0;
    const [idList, requestList] = [[...ids], [...requestIds]];
    const { rows } = await this.#pool.query<{ n: number }>(
      `WITH freed AS (
         UPDATE usage_ledger SET status = 'aborted', cost_m2 = 0, finished_at = $3
          WHERE (id = ANY($1::bigint[]) OR request_id = ANY($2::text[])) AND status = 'reserved' AND owner = $4
         RETURNING account_id, reserved_m2),
       per_account AS (SELECT account_id, sum(reserved_m2) AS held, count(*) AS n FROM freed GROUP BY account_id)
       UPDATE accounts a SET reserved_m2 = a.reserved_m2 - per_account.held
         FROM per_account WHERE a.id = per_account.account_id
       RETURNING per_account.n`,
      [idList, requestList, this.#now(), this.#owner],
    );
    // what went through is settled now (released here, or by whoever got to it first)
    for (const id of idList) ids.delete(id);
    for (const requestId of requestList) requestIds.delete(requestId);
    return rows.reduce((sum, r) => sum + Number(r.n), 0);
  }

  /** A settle that failed leaves its row to this node's next sweep. */
  async #noting<T>(id: number, query: Promise<T>): Promise<T> {
    try {
      return await query;
    } catch (err) {
      this.#unsettled.ids.add(id);
      throw err;
    }
  }

  async usage(accountId: number, limit: number): Promise<UsageRow[]> {
    const { rows } = await this.#pool.query<LedgerRecord>('SELECT * FROM usage_ledger WHERE account_id = $1 ORDER BY id DESC LIMIT $2', [accountId, limit]);
    return rows.map(toUsageRow);
  }

  async #funds(accountId: number): Promise<AccountFunds | undefined> {
    const { rows } = await this.#pool.query<AccountFunds>('SELECT status, balance_m2, reserved_m2 FROM accounts WHERE id = $1', [accountId]);
    return rows[0];
  }
}
