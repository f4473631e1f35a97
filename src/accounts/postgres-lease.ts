/**
 * A node's lease on PostgreSQL. Every open store registers an owner row and renews its expiry every
 * third of the TTL; its reservations carry the owner. Whichever node sweeps releases the holds of
 * owners whose lease has lapsed — never a live one's. Process ids mean nothing across hosts (nor in
 * containers, where every service is pid 1), so unlike SQLite's one-box store there is no
 * "process gone" fast path: a killed node's holds go when its lease lapses, within the TTL.
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type pg from 'pg';

export class PostgresLease {
  readonly owner: string;
  readonly #pool: pg.Pool;
  readonly #ttlMs: number;
  readonly #now: () => Date;
  #timer: NodeJS.Timeout | null = null;

  private constructor(pool: pg.Pool, ttlMs: number, now: () => Date) {
    this.#pool = pool;
    this.#ttlMs = ttlMs;
    this.#now = now;
    this.owner = `${process.pid}@${hostname()}#${randomBytes(6).toString('hex')}`;
  }

  /** Registers the lease and starts renewing it. */
  static async start(pool: pg.Pool, ttlMs: number, now: () => Date): Promise<PostgresLease> {
    const lease = new PostgresLease(pool, ttlMs, now);
    await lease.renew();
    lease.#timer = setInterval(() => void lease.renew().catch(() => {}), Math.max(10, Math.floor(ttlMs / 3)));
    lease.#timer.unref(); // a lease never keeps a process alive
    return lease;
  }

  /**
   * Pushes the expiry a TTL ahead. An upsert: if a sweeper deleted the row while this node was
   * stalled past its lease, the node registers again (its holds of then are gone, uncharged).
   */
  async renew(): Promise<void> {
    const now = this.#now();
    await this.#pool.query(
      `INSERT INTO ledger_owners (owner, pid, host, started_at, expires_at) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (owner) DO UPDATE SET expires_at = EXCLUDED.expires_at`,
      [this.owner, process.pid, hostname(), now, new Date(now.getTime() + this.#ttlMs)],
    );
  }

  /** A graceful end: the lease goes, so whatever this owner still holds counts as stale. */
  async close(): Promise<void> {
    if (this.#timer) clearInterval(this.#timer);
    await this.#pool.query('DELETE FROM ledger_owners WHERE owner = $1', [this.owner]).catch(() => {});
  }
}
