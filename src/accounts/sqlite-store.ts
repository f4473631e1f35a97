/**
 * The account store in one SQLite file: the embedded default (account-store.ts has the interface
 * and its contract). Every call runs synchronously on better-sqlite3 inside; the interface is
 * async for PostgreSQL's sake. Processes sharing the file coordinate through IMMEDIATE
 * transactions and conditional UPDATEs (sqlite-ledger.ts) and leases (sqlite-lease.ts).
 */
import { ApiError } from '../contract/errors.ts';
import type { Statement } from 'better-sqlite3';
import type { AccountStore, AccountStoreOptions, CreatedKey, NewAccount, ReserveOptions } from './account-store.ts';
import { bearerToken, generateKey, hashesEqual, hashKey, parseKey } from './keys.ts';
import { BEARER_CHALLENGE, INVALID_TOKEN_CHALLENGE, nonNegativeM2, toAccount, toKeyInfo, usageLimit, type AccountRecord, type KeyRecord } from './records.ts';
import {
  deleteEntitlement,
  insertEntitlement,
  normalizeGrant,
  selectEntitlements,
  type PremiumEntitlement,
  type PremiumGrant,
} from './premium-entitlements.ts';
import type { Reservation } from './reservation.ts';
import { openDatabase, type Db } from './sqlite-db.ts';
import { SqliteLedger } from './sqlite-ledger.ts';
import { OwnerLease } from './sqlite-lease.ts';
import { AccountStoreError, KEY_KINDS, type Account, type ApiKeyInfo, type AuthContext, type KeyKind, type UsageRow } from './types.ts';

type StoreOptions = Required<Omit<AccountStoreOptions, 'busyTimeoutMs' | 'staleSweepMs' | 'onStaleReleased' | 'poolSize'>>;

const DEFAULTS: StoreOptions = {
  releaseStale: true,
  leaseTtlMs: 15_000,
  lastUsedResolutionMs: 60_000,
  now: () => new Date(),
};

export class SqliteAccountStore implements AccountStore {
  readonly kind = 'sqlite';
  readonly #db: Db;
  readonly #ledger: SqliteLedger;
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
    this.#ledger = new SqliteLedger(db, () => this.#nowIso(), this.#lease.owner);
  }

  /** Opens (creating and migrating if needed) the store at `path`; `:memory:` for a throwaway one. */
  static async open(path: string, options: AccountStoreOptions = {}): Promise<SqliteAccountStore> {
    return SqliteAccountStore.openNow(path, options);
  }

  /** The same, synchronously. */
  static openNow(path: string, options: AccountStoreOptions = {}): SqliteAccountStore {
    const db = openDatabase(path, { busyTimeoutMs: options.busyTimeoutMs });
    const store = new SqliteAccountStore(db, {
      releaseStale: options.releaseStale ?? DEFAULTS.releaseStale,
      lastUsedResolutionMs: options.lastUsedResolutionMs ?? DEFAULTS.lastUsedResolutionMs,
      now: options.now ?? DEFAULTS.now,
      leaseTtlMs: options.leaseTtlMs ?? DEFAULTS.leaseTtlMs,
    });
    if (store.#options.releaseStale) store.#releaseStale();
    const every = options.staleSweepMs ?? Math.floor(store.#options.leaseTtlMs / 3);
    if (every > 0) store.#sweepStaleEvery(every, options.onStaleReleased);
    return store;
  }

  async reachable(): Promise<boolean> {
    return this.#db.open;
  }

  async close(): Promise<void> {
    if (this.#staleSweep) clearInterval(this.#staleSweep);
    this.#lease.close();
    this.#db.close();
  }

  // ── accounts ──────────────────────────────────────────────────────────────

  async createAccount(account: NewAccount): Promise<Account> {
    return this.#createAccount(account);
  }

  #createAccount({ name, balanceKm2, active = true }: NewAccount): Account {
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

  async getAccount(accountId: number): Promise<Account | undefined> {
    return this.#getAccount(accountId);
  }

  #getAccount(accountId: number): Account | undefined {
    const row = this.#sql<[number], AccountRecord>('SELECT * FROM accounts WHERE id = ?').get(accountId);
    return row && toAccount(row);
  }

  async listAccounts(): Promise<Account[]> {
    return this.#sql<[], AccountRecord>('SELECT * FROM accounts ORDER BY id').all().map(toAccount);
  }

  async accountCount(): Promise<number> {
    return this.#accountCount();
  }

  #accountCount(): number {
    return (this.#sql('SELECT count(*) AS n FROM accounts').get() as { n: number }).n;
  }

  /** Adds `km2` (> 0) to the balance. */
  async topUp(accountId: number, km2: number): Promise<Account> {
    const m2 = nonNegativeM2(km2, 'top-up');
    if (m2 === 0) throw new AccountStoreError('A top-up must be more than 0 km².');
    this.#changeAccount(accountId, 'UPDATE accounts SET balance_m2 = balance_m2 + ? WHERE id = ?', m2);
    return this.#requireAccount(accountId);
  }

  /** Activates or suspends the plan. Requests in flight still settle normally. */
  async setActive(accountId: number, active: boolean): Promise<Account> {
    this.#changeAccount(accountId, 'UPDATE accounts SET status = ? WHERE id = ?', active ? 'active' : 'inactive');
    return this.#requireAccount(accountId);
  }

  // ── premium entitlements ──────────────────────────────────────────────────

  async grantPremium(accountId: number, grant: PremiumGrant): Promise<PremiumEntitlement[]> {
    this.#grantPremium(accountId, grant);
    return selectEntitlements(this.#db, accountId);
  }

  #grantPremium(accountId: number, grant: PremiumGrant): void {
    const checked = normalizeGrant(grant);
    this.#requireAccount(accountId);
    insertEntitlement(this.#db, accountId, checked, this.#nowIso());
  }

  async revokePremium(accountId: number, grant: PremiumGrant): Promise<PremiumEntitlement[]> {
    const checked = normalizeGrant(grant);
    this.#requireAccount(accountId);
    if (!deleteEntitlement(this.#db, accountId, checked)) {
      throw new AccountStoreError(`Account ${accountId} has no premium entitlement for ${checked.kind} ${checked.value}.`);
    }
    return selectEntitlements(this.#db, accountId);
  }

  async premiumEntitlements(accountId: number): Promise<PremiumEntitlement[]> {
    return selectEntitlements(this.#db, accountId);
  }

  // ── keys ──────────────────────────────────────────────────────────────────

  /** Makes a new key for the account. The plain key is in the result and nowhere else, ever. */
  async createKey(accountId: number, kind: KeyKind = 'development'): Promise<CreatedKey> {
    return this.#createKey(accountId, kind);
  }

  #createKey(accountId: number, kind: KeyKind): CreatedKey {
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

  async listKeys(accountId: number): Promise<ApiKeyInfo[]> {
    return this.#sql<[number], KeyRecord>('SELECT * FROM api_keys WHERE account_id = ? ORDER BY id').all(accountId).map(toKeyInfo);
  }

  /**
   * Revokes a key named by its id, its display prefix, or the full key. Revoking twice keeps the
   * first revocation time. Throws AccountStoreError when no key matches.
   */
  async revokeKey(keyIdOrPrefix: number | string): Promise<ApiKeyInfo> {
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
  async authenticate(authorization: string | null | undefined): Promise<AuthContext> {
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

  async reserve(auth: AuthContext, areaKm2: number, options: ReserveOptions = {}): Promise<Reservation> {
    return this.#ledger.reserve(auth, areaKm2, options.free === true, options.requestId);
  }

  async releaseStaleReservations(options: { startedBefore?: Date } = {}): Promise<number> {
    return this.#releaseStale(options.startedBefore);
  }

  /** SQLite's owner check has a fast path: a process on this host that no longer exists is gone at once, lease or not. */
  #releaseStale(startedBefore?: Date): number {
    if (startedBefore) return this.#ledger.releaseStale(startedBefore.toISOString(), null);
    return this.#ledger.releaseStale(undefined, this.#lease.liveOwners());
  }

  async assertCanPay(auth: AuthContext): Promise<void> {
    this.#ledger.precheck(auth);
  }

  /** The account's ledger, newest first (default 50 rows). */
  async usage(accountId: number, options: { limit?: number } = {}): Promise<UsageRow[]> {
    return this.#ledger.usage(accountId, usageLimit(options.limit));
  }

  async createFirstAccount(account: NewAccount, kind: KeyKind, grants: readonly PremiumGrant[] = []): Promise<(CreatedKey & { accountId: number }) | null> {
    // IMMEDIATE takes the write lock before the count: the check and the writes cannot interleave with another process.
    return this.#db
      .transaction(() => {
        if (this.#accountCount() > 0) return null;
        const created = this.#createAccount(account);
        for (const grant of grants) this.#grantPremium(created.id, grant);
        return { accountId: created.id, ...this.#createKey(created.id, kind) };
      })
      .immediate();
  }

  // ── helpers ───────────────────────────────────────────────────────────────

  #sweepStaleEvery(ms: number, onReleased?: (count: number) => void): void {
    this.#staleSweep = setInterval(() => {
      let released = 0;
      try {
        released = this.#releaseStale();
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
    const account = this.#getAccount(accountId);
    if (!account) throw new AccountStoreError(`No account with id ${accountId}.`);
    return account;
  }

  #changeAccount(accountId: number, sql: string, value: number | string): void {
    if (this.#sql(sql).run(value, accountId).changes === 0) {
      throw new AccountStoreError(`No account with id ${accountId}.`);
    }
  }
}
