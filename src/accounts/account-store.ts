/**
 * The account store's interface: accounts, API keys and the usage ledger. Two implementations keep
 * the same semantics — SQLite in one file (the embedded default, sqlite-store.ts) and PostgreSQL
 * shared by many API nodes (postgres-store.ts, chosen by CITY_DATABASE_URL); open one with
 * {@link openAccountStore}. Every call is async because PostgreSQL's are.
 *
 * ```ts
 * const store = await openAccountStore({ sqlitePath, databaseUrl });  // migrates; releases stale holds
 * const auth = await store.authenticate(req.headers.authorization);     // 401 ApiError if not a live key
 * const reservation = await store.reserve(auth, areaKm2);               // 402 ApiError if it can't pay
 * try { await respond(); await reservation.commit(); } catch (e) { await reservation.release('failed'); throw e; }
 * ```
 */
import type { PremiumEntitlement, PremiumGrant } from './premium-entitlements.ts';
import type { Reservation } from './reservation.ts';
import type { Account, ApiKeyInfo, AuthContext, KeyKind, UsageRow } from './types.ts';

export interface AccountStoreOptions {
  /**
   * Abort (uncharged) the reservations whose owner is gone when the store opens. True for the
   * service at start-up; false for the admin CLI, which only reads and edits accounts.
   */
  releaseStale?: boolean;
  /** last_used_at is written at most once per this many ms per key, to keep authentication cheap. */
  lastUsedResolutionMs?: number;
  /** Clock, for tests (PostgreSQL: the database's clock by default). */
  now?: () => Date;
  /** Lease of this process's reservations, ms without renewal before another process may release them. */
  leaseTtlMs?: number;
  /** SQLite: how long a writer waits for another process's lock, ms. */
  busyTimeoutMs?: number;
  /**
   * While the store is open, release the holds of owners that are gone every this many ms
   * (0: only when asked). Default: a third of the lease, so a crashed neighbour's holds go within
   * the lease time while this process runs, not only when one starts.
   */
  staleSweepMs?: number;
  /** Told how many holds a periodic sweep released (for the log). */
  onStaleReleased?: (count: number) => void;
  /** PostgreSQL: connections in this process's pool (default 10). */
  poolSize?: number;
}

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

export interface ReserveOptions {
  /** The request costs nothing (no source has data for it): held as usual, committed at cost 0. */
  free?: boolean;
  /**
   * The request's id, unique in the ledger: a second reservation under the same id is refused,
   * so a request is charged at most once whichever node serves it. A random UUID when omitted.
   */
  requestId?: string;
}

export interface AccountStore {
  /** `sqlite` or `postgres`: which implementation (for logs and the admin CLI). */
  readonly kind: 'sqlite' | 'postgres';
  close(): Promise<void>;
  /** Whether the store answers now (for readiness checks): a round trip to PostgreSQL; SQLite's file is always there. */
  reachable(): Promise<boolean>;

  createAccount(account: NewAccount): Promise<Account>;
  getAccount(accountId: number): Promise<Account | undefined>;
  listAccounts(): Promise<Account[]>;
  accountCount(): Promise<number>;
  /** Adds `km2` (> 0) to the balance. */
  topUp(accountId: number, km2: number): Promise<Account>;
  /** Activates or suspends the plan. Requests in flight still settle normally. */
  setActive(accountId: number, active: boolean): Promise<Account>;
  /**
   * Creates `account` with a key of `kind` and the premium `grants` only if the store has no account
   * at all, atomically (two processes starting together make one); null when there was one.
   */
  createFirstAccount(account: NewAccount, kind: KeyKind, grants?: readonly PremiumGrant[]): Promise<(CreatedKey & { accountId: number }) | null>;

  /** Entitles the account to a premium dataset or to every dataset of a country/region; resolves with all its entitlements. */
  grantPremium(accountId: number, grant: PremiumGrant): Promise<PremiumEntitlement[]>;
  /** Takes an entitlement back (exactly as granted: revoking `DE` leaves a grant for `DE-BE`); rejects when the account does not hold it. */
  revokePremium(accountId: number, grant: PremiumGrant): Promise<PremiumEntitlement[]>;
  /** The account's premium entitlements, datasets first, each kind in name order (none for an unknown account). */
  premiumEntitlements(accountId: number): Promise<PremiumEntitlement[]>;

  /** Makes a new key for the account. The plain key is in the result and nowhere else, ever. */
  createKey(accountId: number, kind?: KeyKind): Promise<CreatedKey>;
  listKeys(accountId: number): Promise<ApiKeyInfo[]>;
  /** Revokes a key named by its id, display prefix or full key; the first revocation time stays. */
  revokeKey(keyIdOrPrefix: number | string): Promise<ApiKeyInfo>;
  /**
   * Who is calling. Takes an `Authorization` header value (`Bearer <key>`) or the bare key.
   * Rejects with ApiError `unauthorized` when the key is missing, malformed, unknown or revoked.
   */
  authenticate(authorization: string | null | undefined): Promise<AuthContext>;

  /**
   * Holds the request's cost, max(areaKm2, 0.01) km², against the account's balance. Rejects with
   * ApiError `no_active_subscription` for an inactive plan and `insufficient_balance` (details:
   * balance, reserved, available, cost in km²) when the available balance is smaller than the cost.
   */
  reserve(auth: AuthContext, areaKm2: number, options?: ReserveOptions): Promise<Reservation>;
  /**
   * Rejects with the 402 a request would get if the account cannot pay even the smallest request
   * (inactive plan, or less than 0.01 km² available). Cheap; run before reading a body.
   */
  assertCanPay(auth: AuthContext): Promise<void>;
  /**
   * Aborts, uncharged, the reservations whose owner is gone (its lease lapsed; SQLite also: its
   * process no longer exists on this host) — never those of a live process, this one included.
   * With `startedBefore`, every reservation older than that goes, whoever holds it (an operator's
   * decision). Returns the count.
   */
  releaseStaleReservations(options?: { startedBefore?: Date }): Promise<number>;
  /** The account's ledger, newest first (default 50 rows). */
  usage(accountId: number, options?: { limit?: number }): Promise<UsageRow[]>;
}
