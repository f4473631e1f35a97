/** Public shapes of the accounts module. Amounts are km² at the API; the database keeps whole m². */

export type KeyKind = 'development' | 'production';
export const KEY_KINDS: readonly KeyKind[] = ['development', 'production'];

export type PlanStatus = 'active' | 'inactive';

/** How a reserved request ended. `reserved` is the in-flight state of a ledger row. */
export type UsageStatus = 'reserved' | 'completed' | 'failed' | 'aborted';

export interface Account {
  id: number;
  name: string;
  status: PlanStatus;
  /** What the account owns, km². */
  balanceKm2: number;
  /** Held by requests in flight, km²; never more than the balance. */
  reservedKm2: number;
  /** balanceKm2 - reservedKm2: what a new request may reserve. */
  availableKm2: number;
  createdAt: string;
}

export interface ApiKeyInfo {
  id: number;
  accountId: number;
  kind: KeyKind;
  /** The key's first characters, safe to show (e.g. `cc_live_AbCd1234`). */
  prefix: string;
  createdAt: string;
  revokedAt: string | null;
  lastUsedAt: string | null;
}

/** Who is calling: the result of a successful `authenticate`. */
export interface AuthContext {
  keyId: number;
  accountId: number;
  kind: KeyKind;
}

/** One ledger row: a request that reserved credit. */
export interface UsageRow {
  id: number;
  /** The request's id, unique in the ledger (null on rows older than request ids). */
  requestId: string | null;
  keyId: number;
  accountId: number;
  areaKm2: number;
  /** What was charged: the reserved cost when completed, 0 otherwise. */
  costKm2: number;
  /** What was held while in flight (max(area, 0.01) km²). */
  reservedKm2: number;
  status: UsageStatus;
  startedAt: string;
  finishedAt: string | null;
}

/** Raised by admin operations (not on the request path, so not an ApiError). */
export class AccountStoreError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AccountStoreError';
  }
}
