/**
 * Who holds a reservation. Every process (every open AccountStore) registers an owner row with a
 * lease it renews while alive; its reservations carry the owner. Start-up cleanup then releases
 * only reservations whose owner is gone — lease expired, or a process on this host that no longer
 * exists — and never a live neighbour's holds, so a second server on the same data directory
 * (or a restart of one of two) cannot free the other's in-flight credit.
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Db } from './sqlite-db.ts';
import { processExists } from '../process-alive.ts';

export interface LeaseOptions {
  /** How long a lease lasts without renewal, ms; it is renewed every third of that. */
  ttlMs: number;
  /** ISO time now (the store's clock). */
  now: () => Date;
}

interface OwnerRow {
  owner: string;
  pid: number;
  host: string;
  expires_at: string;
}

export class OwnerLease {
  /** This process's owner id: pid, host and a random part (two stores in one process differ). */
  readonly owner: string;
  readonly #db: Db;
  readonly #options: LeaseOptions;
  readonly #timer: NodeJS.Timeout;

  constructor(db: Db, options: LeaseOptions) {
    this.#db = db;
    this.#options = options;
    this.owner = `${process.pid}@${hostname()}#${randomBytes(6).toString('hex')}`;
    db.prepare('INSERT INTO ledger_owners (owner, pid, host, started_at, expires_at) VALUES (?, ?, ?, ?, ?)').run(
      this.owner,
      process.pid,
      hostname(),
      options.now().toISOString(),
      this.#expiry(),
    );
    this.#timer = setInterval(() => this.renew(), Math.max(10, Math.floor(options.ttlMs / 3)));
    this.#timer.unref(); // a lease never keeps a process alive
  }

  renew(): void {
    try {
      this.#db.prepare('UPDATE ledger_owners SET expires_at = ? WHERE owner = ?').run(this.#expiry(), this.owner);
    } catch {
      // Busy or closed database: the next renewal tries again; the TTL leaves room for a few misses.
    }
  }

  /** Owners whose reservations must be kept: unexpired leases of processes that still exist. */
  liveOwners(): string[] {
    const now = this.#options.now().toISOString();
    const rows = this.#db.prepare('SELECT owner, pid, host, expires_at FROM ledger_owners').all() as OwnerRow[];
    const live: string[] = [];
    const gone: string[] = [];
    for (const row of rows) {
      const alive = row.expires_at > now && (row.host !== hostname() || processExists(row.pid));
      (alive ? live : gone).push(row.owner);
    }
    const drop = this.#db.prepare('DELETE FROM ledger_owners WHERE owner = ?');
    for (const owner of gone) if (owner !== this.owner) drop.run(owner);
    return live;
  }

  /** A graceful end: the lease goes, so whatever this owner still holds counts as stale. */
  close(): void {
    clearInterval(this.#timer);
    try {
      this.#db.prepare('DELETE FROM ledger_owners WHERE owner = ?').run(this.owner);
    } catch {
      /* closed already */
    }
  }

  #expiry(): string {
    return new Date(this.#options.now().getTime() + this.#options.ttlMs).toISOString();
  }
}
