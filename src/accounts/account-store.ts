/**
 * Accounts, API keys and the usage ledger in one SQLite file (embedded default; docs/design.md
 * "When one box is not enough" keeps this interface for PostgreSQL).
 *
 * ```ts
 * const store = AccountStore.open(join(dataDir, 'accounts.sqlite'));   // releases stale reservations
 * const auth = store.authenticate(req.headers.authorization);          // 401 ApiError if not a live key
 * const reservation = store.reserve(auth, areaKm2);                    // 402 ApiError if it can't pay
 * try { await respond(); reservation.commit(); } catch (e) { reservation.release('failed'); throw e; }
 * ```
 */
import { ApiError } from '../contract/errors.ts';
import type { Statement } from 'better-sqlite3';
import { openDatabase, type Db } from './db.ts';
import { bearerToken, generateKey, hashesEqual, hashKey, parseKey } from './keys.ts';
import { OwnerLease } from './lease.ts';
import { Ledger, Reservation } from './ledger.ts';
import {
  deleteEntitlement,
  insertEntitlement,
  normalizeGrant,
  selectEntitlements,
  type PremiumEntitlement,
  type PremiumGrant,
} from './premium-entitlements.ts';
import { AccountStoreError, KEY_KINDS, type Account, type ApiKeyInfo, type AuthContext, type KeyKind, type PlanStatus, type UsageRow } from './types.ts';
import { km2ToM2, m2ToKm2 } from './units.ts';

export interface AccountStoreOptions {
  /**
   * Abort (uncharged) every reservation left open in the file, as a crashed process leaves them.
   * True for the service at start-up; false for any second process on the same file (the admin
   * CLI), which must not release a running server's reservations.
   */
  releaseStale?: boolean;
  /** last_used_at is written at most once per this many ms per key, to keep authentication cheap. */
  lastUsedResolutionMs?: number;
  /** Clock, for tests. */
  now?: () => Date;
  /** Lease of this process's reservations, ms without renewal before another process may release them. */
  leaseTtlMs?: number;
  /** How long a writer waits for another process's lock, ms. */
  busyTimeoutMs?: number;
  /**
   * While the store is open, release the holds of owners that are gone every this many ms
   * (0: only when asked). Default: a third of the lease, so a crashed neighbour's holds go within
   * the lease time while this process runs, not only when one starts.
   */
  staleSweepMs?: number;
  /** Told how many holds a periodic sweep released (for the log). */
  onStaleReleased?: (count: number) => void;
}

type StoreOptions = Required<Omit<AccountStoreOptions, 'busyTimeoutMs' | 'staleSweepMs' | 'onStaleReleased'>>;

const DEFAULTS: StoreOptions = {
  releaseStale: true,
  leaseTtlMs: 15_000,
  lastUsedResolutionMs: 60_000,
  now: () => new Date(),
};

export interface NewAccount {
  name: string;
  balanceKm2: number;
  /** Default true. */
  active?: boolean;
}

export interface CreatedKey {
  /** The plain key. Shown once; only its hash is stored. */
  key: string;
  keyId: number;
  prefix: string;
  kind: KeyKind;
}

interface AccountRecord {
  id: number;
  name: string;
  status: PlanStatus;
  balance_m2: number;
  reserved_m2: number;
  created_at: string;
}

interface KeyRecord {
  id: number;
  account_id: number;
  kind: KeyKind;
  prefix: string;
  key_hash: Buffer;
  created_at: string;
  revoked_at: string | null;
  last_used_at: string | null;
}

/** RFC 6750 challenges sent with every 401. */
const BEARER_CHALLENGE = { 'WWW-Authenticate': 'Bearer realm="city-context"' };
const INVALID_TOKEN_CHALLENGE = { 'WWW-Authenticate': 'Bearer realm="city-context", error="invalid_token"' };

export class AccountStore {
  readonly #db: Db;
  readonly #ledger: Ledger;
  readonly #lease: OwnerLease;
  readonly #options: StoreOptions;
  #staleSweep: NodeJS.Timeout | null = null;
  /** Prepared statements by SQL text: preparing costs more than running. */
  readonly #statements = new Map<string, Statement>();
  /** keyId → when this process last wrote its last_used_at (ms). */
  readonly #lastUsedWritten = new Map<number, number>();

  private constructor(db: Db, options: StoreOptions) {
    this.#db = db;
    this.#options = options;
    this.#lease = new OwnerLease(db, { ttlMs: options.leaseTtlMs, now: options.now });
    this.#ledger = new Ledger(db, () => this.#nowIso(), this.#lease.owner);
  }

  /** Opens (creating and migrating if needed) the store at `path`; `:memory:` for a throwaway one. */
  static open(path: string, options: AccountStoreOptions = {}): AccountStore {
    const db = openDatabase(path, { busyTimeoutMs: options.busyTimeoutMs });
    const store = new AccountStore(db, {
      releaseStale: options.releaseStale ?? DEFAULTS.releaseStale,
      lastUsedResolutionMs: options.lastUsedResolutionMs ?? DEFAULTS.lastUsedResolutionMs,
      now: options.now ?? DEFAULTS.now,
      leaseTtlMs: options.leaseTtlMs ?? DEFAULTS.leaseTtlMs,
    });
    if (store.#options.releaseStale) store.releaseStaleReservations();
    const every = options.staleSweepMs ?? Math.floor(store.#options.leaseTtlMs / 3);
    if (every > 0) store.#sweepStaleEvery(every, options.onStaleReleased);
    return store;
  }

  close(): void {
    if (this.#staleSweep) clearInterval(this.#staleSweep);
    this.#lease.close();
    this.#db.close();
  }

  // ── accounts ──────────────────────────────────────────────────────────────

  createAccount({ name, balanceKm2, active = true }: NewAccount): Account {
    const trimmed = name.trim();
    if (trimmed === '') throw new AccountStoreError('An account needs a name.');
    const balanceM2 = nonNegativeM2(balanceKm2, 'balance');
    const info = this.#sql('INSERT INTO accounts (name, status, balance_m2, created_at) VALUES (?, ?, ?, ?)').run(
      trimmed,
      active ? 'active' : 'inactive',
      balanceM2,
      this.#nowIso(),
    );
    return this.#requireAccount(Number(info.lastInsertRowid));
  }

  getAccount(accountId: number): Account | undefined {
    const row = this.#sql<[number], AccountRecord>('SELECT * FROM accounts WHERE id = ?').get(accountId);
    return row && toAccount(row);
  }

  listAccounts(): Account[] {
    return this.#sql<[], AccountRecord>('SELECT * FROM accounts ORDER BY id').all().map(toAccount);
  }

  accountCount(): number {
    return (this.#sql('SELECT count(*) AS n FROM accounts').get() as { n: number }).n;
  }

  /** Adds `km2` (> 0) to the balance. */
  topUp(accountId: number, km2: number): Account {
    const m2 = nonNegativeM2(km2, 'top-up');
    if (m2 === 0) throw new AccountStoreError('A top-up must be more than 0 km².');
    this.#changeAccount(accountId, 'UPDATE accounts SET balance_m2 = balance_m2 + ? WHERE id = ?', m2);
    return this.#requireAccount(accountId);
  }

  /** Activates or suspends the plan. Requests in flight still settle normally. */
  setActive(accountId: number, active: boolean): Account {
    this.#changeAccount(accountId, 'UPDATE accounts SET status = ? WHERE id = ?', active ? 'active' : 'inactive');
    return this.#requireAccount(accountId);
  }

  // ── premium entitlements ──────────────────────────────────────────────────

  /** Entitles the account to a premium dataset or to every dataset of a country/region; returns all its entitlements. */
  grantPremium(accountId: number, grant: PremiumGrant): PremiumEntitlement[] {
    const checked = normalizeGrant(grant);
    this.#requireAccount(accountId);
    insertEntitlement(this.#db, accountId, checked, this.#nowIso());
    return selectEntitlements(this.#db, accountId);
  }

  /** Takes an entitlement back (exactly as granted: revoking `DE` leaves a grant for `DE-BE`); throws when the account does not hold it. */
  revokePremium(accountId: number, grant: PremiumGrant): PremiumEntitlement[] {
    const checked = normalizeGrant(grant);
    this.#requireAccount(accountId);
    if (!deleteEntitlement(this.#db, accountId, checked)) {
      throw new AccountStoreError(`Account ${accountId} has no premium entitlement for ${checked.kind} ${checked.value}.`);
    }
    return selectEntitlements(this.#db, accountId);
  }

  /** The account's premium entitlements (none for an unknown account). */
  premiumEntitlements(accountId: number): PremiumEntitlement[] {
    return selectEntitlements(this.#db, accountId);
  }

  // ── keys ──────────────────────────────────────────────────────────────────

  /** Makes a new key for the account. The plain key is in the result and nowhere else, ever. */
  createKey(accountId: number, kind: KeyKind = 'development'): CreatedKey {
    if (!KEY_KINDS.includes(kind)) throw new AccountStoreError(`Key kind must be development or production, not ${String(kind)}.`);
    this.#requireAccount(accountId);
    const insert = this.#sql('INSERT INTO api_keys (account_id, kind, prefix, key_hash, created_at) VALUES (?, ?, ?, ?, ?)');
    for (let attempt = 0; ; attempt++) {
      const fresh = generateKey(kind);
      try {
        const info = insert.run(accountId, kind, fresh.prefix, fresh.hash, this.#nowIso());
        return { key: fresh.key, keyId: Number(info.lastInsertRowid), prefix: fresh.prefix, kind };
      } catch (err) {
        // A 48-bit display prefix can collide (rarely); draw again rather than fail.
        if (attempt < 3 && (err as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE') continue;
        throw err;
      }
    }
  }

  listKeys(accountId: number): ApiKeyInfo[] {
    return this.#sql<[number], KeyRecord>('SELECT * FROM api_keys WHERE account_id = ? ORDER BY id').all(accountId).map(toKeyInfo);
  }

  /**
   * Revokes a key named by its id, its display prefix, or the full key. Revoking twice keeps the
   * first revocation time. Throws AccountStoreError when no key matches.
   */
  revokeKey(keyIdOrPrefix: number | string): ApiKeyInfo {
    const key = this.#findKey(keyIdOrPrefix);
    if (!key) throw new AccountStoreError(`No API key matches ${JSON.stringify(String(keyIdOrPrefix))}.`);
    this.#sql('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL').run(this.#nowIso(), key.id);
    this.#lastUsedWritten.delete(key.id);
    return toKeyInfo(this.#findKey(key.id)!);
  }

  /**
   * Who is calling. Takes an `Authorization` header value (`Bearer <key>`) or the bare key.
   * Throws ApiError `unauthorized` when the key is missing, malformed, unknown or revoked.
   */
  authenticate(authorization: string | null | undefined): AuthContext {
    const token = bearerToken(authorization);
    if (token === undefined) {
      throw new ApiError('unauthorized', 'An API key is required: send the header "Authorization: Bearer <key>".', [], BEARER_CHALLENGE);
    }
    const parsed = parseKey(token);
    if (!parsed) throw new ApiError('unauthorized', 'The API key is malformed.', [], INVALID_TOKEN_CHALLENGE);
    const row = this.#sql<[string], KeyRecord>('SELECT * FROM api_keys WHERE prefix = ?').get(parsed.prefix);
    // Found by its public prefix, then the secret part is checked in constant time.
    if (!row || row.kind !== parsed.kind || !hashesEqual(row.key_hash, hashKey(token))) {
      throw new ApiError('unauthorized', 'The API key is not valid.', [], INVALID_TOKEN_CHALLENGE);
    }
    if (row.revoked_at !== null) throw new ApiError('unauthorized', 'The API key has been revoked.', [], INVALID_TOKEN_CHALLENGE);
    this.#touch(row.id);
    return { keyId: row.id, accountId: row.account_id, kind: row.kind };
  }

  // ── credit ────────────────────────────────────────────────────────────────

  /**
   * Holds the request's cost, max(areaKm2, 0.01) km², against the account's balance. Throws ApiError
   * `no_active_subscription` for an inactive plan and `insufficient_balance` (details: balance,
   * reserved, available, cost in km²) when the available balance is smaller than the cost. With
   * `free`, its cost is held all the same but the commit charges 0 (the row records cost 0).
   */
  reserve(auth: AuthContext, areaKm2: number, options: { free?: boolean } = {}): Reservation {
    return this.#ledger.reserve(auth, areaKm2, options.free === true);
  }

  /**
   * Aborts, uncharged, the reservations whose owner is gone (its lease expired, or its process no
   * longer exists on this host) — never those of a live process, this one included. Run at
   * start-up and every `staleSweepMs` while open: a crashed process must not leave credit held,
   * whether or not another one starts. With `startedBefore`, every
   * reservation older than that time goes, whoever holds it (an operator's decision). Returns the count.
   */
  releaseStaleReservations(options: { startedBefore?: Date } = {}): number {
    if (options.startedBefore) return this.#ledger.releaseStale(options.startedBefore.toISOString(), null);
    return this.#ledger.releaseStale(undefined, this.#lease.liveOwners());
  }

  /**
   * Throws the 402 a request would get if the account cannot pay even the smallest request
   * (inactive plan, or less than 0.01 km² available). Cheap; run before reading a body.
   */
  assertCanPay(auth: AuthContext): void {
    this.#ledger.precheck(auth);
  }

  /** The account's ledger, newest first (default 50 rows). */
  usage(accountId: number, options: { limit?: number } = {}): UsageRow[] {
    const limit = options.limit ?? 50;
    if (!Number.isInteger(limit) || limit < 1) throw new AccountStoreError(`Limit must be a positive integer, not ${limit}.`);
    return this.#ledger.usage(accountId, limit);
  }

  /**
   * Runs `fn` holding the database's write lock, so a check and the writes that depend on it cannot
   * interleave with another process (e.g. "create the demo account if there is none").
   */
  exclusive<T>(fn: () => T): T {
    return this.#db.transaction(fn).immediate();
  }

  // ── helpers ───────────────────────────────────────────────────────────────

  #sweepStaleEvery(ms: number, onReleased?: (count: number) => void): void {
    this.#staleSweep = setInterval(() => {
      let released = 0;
      try {
        released = this.releaseStaleReservations();
      } catch {
        // Busy or closed database: the next round tries again.
      }
      if (released > 0) onReleased?.(released);
    }, ms);
    this.#staleSweep.unref(); // never keeps a process alive
  }

  #sql<P extends unknown[] | Record<string, unknown> = unknown[], R = unknown>(source: string): Statement<P, R> {
    let statement = this.#statements.get(source);
    if (!statement) this.#statements.set(source, (statement = this.#db.prepare(source)));
    return statement as unknown as Statement<P, R>;
  }

  #nowIso(): string {
    return this.#options.now().toISOString();
  }

  #touch(keyId: number): void {
    const nowMs = this.#options.now().getTime();
    const last = this.#lastUsedWritten.get(keyId);
    if (last !== undefined && nowMs - last < this.#options.lastUsedResolutionMs) return;
    this.#lastUsedWritten.set(keyId, nowMs);
    this.#sql('UPDATE api_keys SET last_used_at = ? WHERE id = ?').run(new Date(nowMs).toISOString(), keyId);
  }

  #findKey(ref: number | string): KeyRecord | undefined {
    const byId = this.#sql<[number], KeyRecord>('SELECT * FROM api_keys WHERE id = ?');
    if (typeof ref === 'number') return byId.get(ref);
    const text = ref.trim();
    if (/^\d+$/.test(text)) return byId.get(Number(text));
    const prefix = parseKey(text)?.prefix ?? text;
    return this.#sql<[string], KeyRecord>('SELECT * FROM api_keys WHERE prefix = ?').get(prefix);
  }

  #requireAccount(accountId: number): Account {
    const account = this.getAccount(accountId);
    if (!account) throw new AccountStoreError(`No account with id ${accountId}.`);
    return account;
  }

  #changeAccount(accountId: number, sql: string, value: number | string): void {
    if (this.#sql(sql).run(value, accountId).changes === 0) {
      throw new AccountStoreError(`No account with id ${accountId}.`);
    }
  }
}

export { Reservation };

function nonNegativeM2(km2: number, what: string): number {
  if (typeof km2 !== 'number' || !Number.isFinite(km2) || km2 < 0) {
    throw new AccountStoreError(`The ${what} must be a number of km² ≥ 0, not ${String(km2)}.`);
  }
  return km2ToM2(km2);
}

function toAccount(r: AccountRecord): Account {
  return {
    id: r.id,
    name: r.name,
    status: r.status,
    balanceKm2: m2ToKm2(r.balance_m2),
    reservedKm2: m2ToKm2(r.reserved_m2),
    availableKm2: m2ToKm2(r.balance_m2 - r.reserved_m2),
    createdAt: r.created_at,
  };
}

function toKeyInfo(r: KeyRecord): ApiKeyInfo {
  return {
    id: r.id,
    accountId: r.account_id,
    kind: r.kind,
    prefix: r.prefix,
    createdAt: r.created_at,
    revokedAt: r.revoked_at,
    lastUsedAt: r.last_used_at,
  };
}
