/**
 * The account store on PostgreSQL (CITY_DATABASE_URL), shared by any number of API nodes; the
 * interface and its contract are in account-store.ts, the ledger's concurrency in
 * postgres-ledger.ts, the node leases in postgres-lease.ts. Times come from the database's clock
 * (measured once at open), so nodes whose clocks drift still agree on whose lease has lapsed.
 */
import { ApiError } from '../contract/errors.ts';
import pg from 'pg';
import type { AccountStore, AccountStoreOptions, CreatedKey, NewAccount, ReserveOptions } from './account-store.ts';
import { bearerToken, generateKey, hashesEqual, hashKey, parseKey } from './keys.ts';
import { PostgresLease } from './postgres-lease.ts';
import { PostgresLedger } from './postgres-ledger.ts';
import { migratePostgres } from './postgres-schema.ts';
import { BEARER_CHALLENGE, INVALID_TOKEN_CHALLENGE, nonNegativeM2, toAccount, toKeyInfo, usageLimit, type AccountRecord, type KeyRecord } from './records.ts';
import { normalizeGrant, type PremiumEntitlement, type PremiumEntitlementKind, type PremiumGrant } from './premium-entitlements.ts';
import type { Reservation } from './reservation.ts';
import { AccountStoreError, KEY_KINDS, type Account, type ApiKeyInfo, type AuthContext, type KeyKind, type UsageRow } from './types.ts';

const INT8_OID = 20;
/** bigint ids and m² fit a double exactly far beyond any real balance (2^53 m²). */
const types = { getTypeParser: (oid: number, format?: 'text' | 'binary') => (oid === INT8_OID ? Number : pg.types.getTypeParser(oid, format)) };

/** Key for the advisory lock that makes "create the first account" atomic across nodes. */
const FIRST_ACCOUNT_LOCK = 0x43_43_46_41; // "CCFA"

export class PostgresAccountStore implements AccountStore {
  readonly kind = 'postgres';
  readonly #pool: pg.Pool;
  readonly #lease: PostgresLease;
  readonly #ledger: PostgresLedger;
  readonly #now: () => Date;
  readonly #lastUsedResolutionMs: number;
  readonly #lastUsedWritten = new Map<number, number>();
  #staleSweep: NodeJS.Timeout | null = null;

  private constructor(pool: pg.Pool, lease: PostgresLease, now: () => Date, options: AccountStoreOptions) {
    this.#pool = pool;
    this.#lease = lease;
    this.#now = now;
    this.#ledger = new PostgresLedger(pool, now, lease.owner);
    this.#lastUsedResolutionMs = options.lastUsedResolutionMs ?? 60_000;
  }

  /** Connects, migrates, takes a lease and (unless told not to) releases the holds of nodes that are gone. */
  static async open(url: string, options: AccountStoreOptions = {}): Promise<PostgresAccountStore> {
    const pool = new pg.Pool({ connectionString: url, max: options.poolSize ?? 10, types, application_name: 'city-context' });
    // An idle connection the server dropped (restart, failover) must not crash the process; the next query reconnects.
    pool.on('error', () => {});
    try {
      await migratePostgres(pool);
      const now = options.now ?? (await databaseClock(pool));
      const ttl = options.leaseTtlMs ?? 15_000;
      const lease = await PostgresLease.start(pool, ttl, now);
      const store = new PostgresAccountStore(pool, lease, now, options);
      if (options.releaseStale ?? true) await store.releaseStaleReservations();
      const every = options.staleSweepMs ?? Math.floor(ttl / 3);
      if (every > 0) store.#sweepStaleEvery(every, options.onStaleReleased);
      return store;
    } catch (err) {
      await pool.end().catch(() => {});
      throw err;
    }
  }

  async reachable(): Promise<boolean> {
    try {
      await this.#pool.query('SELECT 1');
      return true;
    } catch {
      return false;
    }
  }

  async close(): Promise<void> {
    if (this.#staleSweep) clearInterval(this.#staleSweep);
    await this.#lease.close();
    await this.#pool.end();
  }

  // ── accounts ──────────────────────────────────────────────────────────────

  async createAccount(account: NewAccount, client: pg.Pool | pg.PoolClient = this.#pool): Promise<Account> {
    const name = account.name.trim();
    if (name === '') throw new AccountStoreError('An account needs a name.');
    const balanceM2 = nonNegativeM2(account.balanceKm2, 'balance');
    const { rows } = await client.query<AccountRecord>('INSERT INTO accounts (name, status, balance_m2, created_at) VALUES ($1, $2, $3, $4) RETURNING *', [
      name,
      account.active === false ? 'inactive' : 'active',
      balanceM2,
      this.#now(),
    ]);
    return toAccount(rows[0]!);
  }

  async getAccount(accountId: number): Promise<Account | undefined> {
    const { rows } = await this.#pool.query<AccountRecord>('SELECT * FROM accounts WHERE id = $1', [accountId]);
    return rows[0] && toAccount(rows[0]);
  }

  async listAccounts(): Promise<Account[]> {
    return (await this.#pool.query<AccountRecord>('SELECT * FROM accounts ORDER BY id')).rows.map(toAccount);
  }

  async accountCount(): Promise<number> {
    return (await this.#pool.query<{ n: number }>('SELECT count(*) AS n FROM accounts')).rows[0]!.n;
  }

  async topUp(accountId: number, km2: number): Promise<Account> {
    const m2 = nonNegativeM2(km2, 'top-up');
    if (m2 === 0) throw new AccountStoreError('A top-up must be more than 0 km².');
    return this.#changeAccount(accountId, 'UPDATE accounts SET balance_m2 = balance_m2 + $1 WHERE id = $2 RETURNING *', m2);
  }

  async setActive(accountId: number, active: boolean): Promise<Account> {
    return this.#changeAccount(accountId, 'UPDATE accounts SET status = $1 WHERE id = $2 RETURNING *', active ? 'active' : 'inactive');
  }

  async createFirstAccount(account: NewAccount, kind: KeyKind, grants: readonly PremiumGrant[] = []): Promise<(CreatedKey & { accountId: number }) | null> {
    const client = await this.#pool.connect();
    try {
      await client.query('BEGIN');
      // Nodes starting together on an empty database: the lock makes the count and the inserts one step.
      await client.query('SELECT pg_advisory_xact_lock($1)', [FIRST_ACCOUNT_LOCK]);
      const { rows } = await client.query<{ any: boolean }>('SELECT EXISTS (SELECT 1 FROM accounts) AS any');
      if (rows[0]!.any) {
        await client.query('ROLLBACK');
        return null;
      }
      const created = await this.createAccount(account, client);
      for (const grant of grants) await this.#insertGrant(client, created.id, normalizeGrant(grant));
      const key = await this.createKey(created.id, kind, client);
      await client.query('COMMIT');
      return { accountId: created.id, ...key };
    } catch (err) {
      await client.query('ROLLBACK').catch(() => {});
      throw err;
    } finally {
      client.release();
    }
  }

  // ── premium entitlements ──────────────────────────────────────────────────

  async grantPremium(accountId: number, grant: PremiumGrant): Promise<PremiumEntitlement[]> {
    const checked = normalizeGrant(grant);
    await this.#requireAccount(accountId);
    await this.#insertGrant(this.#pool, accountId, checked);
    return this.premiumEntitlements(accountId);
  }

  async revokePremium(accountId: number, grant: PremiumGrant): Promise<PremiumEntitlement[]> {
    const checked = normalizeGrant(grant);
    await this.#requireAccount(accountId);
    const { rowCount } = await this.#pool.query('DELETE FROM premium_entitlements WHERE account_id = $1 AND kind = $2 AND value = $3', [
      accountId,
      checked.kind,
      checked.value,
    ]);
    if (rowCount === 0) throw new AccountStoreError(`Account ${accountId} has no premium entitlement for ${checked.kind} ${checked.value}.`);
    return this.premiumEntitlements(accountId);
  }

  async premiumEntitlements(accountId: number): Promise<PremiumEntitlement[]> {
    // COLLATE "C": the same byte order as SQLite's, whatever the database's locale
    const { rows } = await this.#pool.query<{ kind: PremiumEntitlementKind; value: string; granted_at: Date }>(
      'SELECT kind, value, granted_at FROM premium_entitlements WHERE account_id = $1 ORDER BY kind COLLATE "C" DESC, value COLLATE "C"',
      [accountId],
    );
    return rows.map((r) => ({ kind: r.kind, value: r.value, grantedAt: r.granted_at.toISOString() }));
  }

  /** Adds the grant (granting twice keeps the first time). */
  async #insertGrant(client: pg.Pool | pg.PoolClient, accountId: number, grant: PremiumGrant): Promise<void> {
    await client.query(
      'INSERT INTO premium_entitlements (account_id, kind, value, granted_at) VALUES ($1, $2, $3, $4) ON CONFLICT (account_id, kind, value) DO NOTHING',
      [accountId, grant.kind, grant.value, this.#now()],
    );
  }

  async #requireAccount(accountId: number): Promise<void> {
    const { rowCount } = await this.#pool.query('SELECT 1 FROM accounts WHERE id = $1', [accountId]);
    if (rowCount === 0) throw new AccountStoreError(`No account with id ${accountId}.`);
  }

  // ── keys ──────────────────────────────────────────────────────────────────

  async createKey(accountId: number, kind: KeyKind = 'development', client: pg.Pool | pg.PoolClient = this.#pool): Promise<CreatedKey> {
    if (!KEY_KINDS.includes(kind)) throw new AccountStoreError(`Key kind must be development or production, not ${String(kind)}.`);
    const exists = await client.query('SELECT 1 FROM accounts WHERE id = $1', [accountId]);
    if (exists.rowCount === 0) throw new AccountStoreError(`No account with id ${accountId}.`);
    for (let attempt = 0; ; attempt++) {
      const fresh = generateKey(kind);
      // A savepoint inside a transaction, so a prefix collision does not abort the caller's transaction.
      const inTx = client !== this.#pool;
      if (inTx) await client.query('SAVEPOINT new_key');
      try {
        const { rows } = await client.query<{ id: number }>(
          'INSERT INTO api_keys (account_id, kind, prefix, key_hash, created_at) VALUES ($1, $2, $3, $4, $5) RETURNING id',
          [accountId, kind, fresh.prefix, fresh.hash, this.#now()],
        );
        return { key: fresh.key, keyId: rows[0]!.id, prefix: fresh.prefix, kind };
      } catch (err) {
        if (inTx) await client.query('ROLLBACK TO SAVEPOINT new_key');
        // A 48-bit display prefix can collide (rarely); draw again rather than fail.
        if (attempt < 3 && (err as { code?: string }).code === '23505') continue;
        throw err;
      }
    }
  }

  async listKeys(accountId: number): Promise<ApiKeyInfo[]> {
    return (await this.#pool.query<KeyRecord>('SELECT * FROM api_keys WHERE account_id = $1 ORDER BY id', [accountId])).rows.map(toKeyInfo);
  }

  async revokeKey(keyIdOrPrefix: number | string): Promise<ApiKeyInfo> {
    const key = await this.#findKey(keyIdOrPrefix);
    if (!key) throw new AccountStoreError(`No API key matches ${JSON.stringify(String(keyIdOrPrefix))}.`);
    await this.#pool.query('UPDATE api_keys SET revoked_at = $1 WHERE id = $2 AND revoked_at IS NULL', [this.#now(), key.id]);
    this.#lastUsedWritten.delete(key.id);
    return toKeyInfo((await this.#findKey(key.id))!);
  }

  authenticate(authorization: string | null | undefined): Promise<AuthContext> {
    return unreachableAsBusy(this.#authenticate(authorization));
  }

  async #authenticate(authorization: string | null | undefined): Promise<AuthContext> {
    const token = bearerToken(authorization);
    if (token === undefined) {
      throw new ApiError('unauthorized', 'An API key is required: send the header "Authorization: Bearer <key>".', [], BEARER_CHALLENGE);
    }
    const parsed = parseKey(token);
    if (!parsed) throw new ApiError('unauthorized', 'The API key is malformed.', [], INVALID_TOKEN_CHALLENGE);
    const { rows } = await this.#pool.query<KeyRecord>('SELECT * FROM api_keys WHERE prefix = $1', [parsed.prefix]);
    const row = rows[0];
    // Found by its public prefix, then the secret part is checked in constant time.
    if (!row || row.kind !== parsed.kind || !hashesEqual(row.key_hash, hashKey(token))) {
      throw new ApiError('unauthorized', 'The API key is not valid.', [], INVALID_TOKEN_CHALLENGE);
    }
    if (row.revoked_at !== null) throw new ApiError('unauthorized', 'The API key has been revoked.', [], INVALID_TOKEN_CHALLENGE);
    await this.#touch(row.id);
    return { keyId: row.id, accountId: row.account_id, kind: row.kind };
  }

  // ── credit ────────────────────────────────────────────────────────────────

  reserve(auth: AuthContext, areaKm2: number, options: ReserveOptions = {}): Promise<Reservation> {
    return unreachableAsBusy(this.#ledger.reserve(auth, areaKm2, options.free === true, options.requestId));
  }

  assertCanPay(auth: AuthContext): Promise<void> {
    return unreachableAsBusy(this.#ledger.precheck(auth));
  }

  releaseStaleReservations(options: { startedBefore?: Date } = {}): Promise<number> {
    return this.#ledger.releaseStale(options.startedBefore ?? null, options.startedBefore !== undefined);
  }

  async usage(accountId: number, options: { limit?: number } = {}): Promise<UsageRow[]> {
    return this.#ledger.usage(accountId, usageLimit(options.limit));
  }

  // ── helpers ───────────────────────────────────────────────────────────────

  #sweepStaleEvery(ms: number, onReleased?: (count: number) => void): void {
    this.#staleSweep = setInterval(() => {
      this.releaseStaleReservations().then(
        (released) => {
          if (released > 0) onReleased?.(released);
        },
        () => {}, // database unreachable: the next round tries again
      );
    }, ms);
    this.#staleSweep.unref();
  }

  async #touch(keyId: number): Promise<void> {
    const now = this.#now();
    const last = this.#lastUsedWritten.get(keyId);
    if (last !== undefined && now.getTime() - last < this.#lastUsedResolutionMs) return;
    this.#lastUsedWritten.set(keyId, now.getTime());
    await this.#pool.query('UPDATE api_keys SET last_used_at = $1 WHERE id = $2', [now, keyId]);
  }

  async #findKey(ref: number | string): Promise<KeyRecord | undefined> {
    const byId = async (id: number) => (await this.#pool.query<KeyRecord>('SELECT * FROM api_keys WHERE id = $1', [id])).rows[0];
    if (typeof ref === 'number') return byId(ref);
    const text = ref.trim();
    if (/^\d+$/.test(text)) return byId(Number(text));
    const prefix = parseKey(text)?.prefix ?? text;
    return (await this.#pool.query<KeyRecord>('SELECT * FROM api_keys WHERE prefix = $1', [prefix])).rows[0];
  }

  async #changeAccount(accountId: number, sql: string, value: number | string): Promise<Account> {
    const { rows } = await this.#pool.query<AccountRecord>(sql, [value, accountId]);
    if (!rows[0]) throw new AccountStoreError(`No account with id ${accountId}.`);
    return toAccount(rows[0]);
  }
}

/**
 * On the request path, a database that cannot be reached (refused, reset, shutting down, timed
 * out) is the server's temporary trouble, not a bug: 503 `server_busy` with Retry-After, not 500.
 */
async function unreachableAsBusy<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (err) {
    if (err instanceof ApiError || !isUnreachable(err)) throw err;
    throw new ApiError('server_busy', 'The accounts database cannot be reached; retry shortly.', [], { 'Retry-After': '5' });
  }
}

function isUnreachable(err: unknown): boolean {
  const code = String((err as { code?: unknown })?.code ?? '');
  // node's socket errors; SQLSTATE class 08 (connection exception) and 57P01-57P03 (shutting down, cannot connect now)
  if (['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND', 'EHOSTUNREACH', 'EPIPE'].includes(code)) return true;
  if (code.startsWith('08') || ['57P01', '57P02', '57P03'].includes(code)) return true;
  return /Connection terminated|timeout exceeded when trying to connect/i.test(String((err as Error)?.message));
}

/** The database's clock as seen from here: this host's clock plus the offset measured now. */
async function databaseClock(pool: pg.Pool): Promise<() => Date> {
  const before = Date.now();
  const { rows } = await pool.query<{ t: Date }>('SELECT clock_timestamp() AS t');
  const offset = rows[0]!.t.getTime() - (before + Date.now()) / 2;
  return () => new Date(Date.now() + offset);
}
