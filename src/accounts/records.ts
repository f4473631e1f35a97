/**
 * Rows as both stores read them, turned into the public shapes, and the 402 that explains a
 * refused reservation. Amounts are whole m² in the database, km² outside.
 */
import { ApiError } from '../contract/errors.ts';
import { AccountStoreError, type Account, type ApiKeyInfo, type KeyKind, type PlanStatus, type UsageRow, type UsageStatus } from './types.ts';
import { km2ToM2, m2ToKm2 } from './units.ts';

/** SQLite keeps ISO-8601 text; PostgreSQL timestamptz arrives as a Date. */
type Time = string | Date;

export interface AccountRecord {
  id: number;
  name: string;
  status: PlanStatus;
  balance_m2: number;
  reserved_m2: number;
  created_at: Time;
}

export interface KeyRecord {
  id: number;
  account_id: number;
  kind: KeyKind;
  prefix: string;
  key_hash: Buffer;
  created_at: Time;
  revoked_at: Time | null;
  last_used_at: Time | null;
}

export interface LedgerRecord {
  id: number;
  request_id: string | null;
  key_id: number;
  account_id: number;
  area_m2: number;
  reserved_m2: number;
  cost_m2: number;
  status: UsageStatus;
  started_at: Time;
  finished_at: Time | null;
}

export interface AccountFunds {
  status: string;
  balance_m2: number;
  reserved_m2: number;
}

export function iso(t: Time): string;
export function iso(t: Time | null): string | null;
export function iso(t: Time | null): string | null {
  return t === null ? null : typeof t === 'string' ? t : t.toISOString();
}

export function toAccount(r: AccountRecord): Account {
  return {
    id: r.id,
    name: r.name,
    status: r.status,
    balanceKm2: m2ToKm2(r.balance_m2),
    reservedKm2: m2ToKm2(r.reserved_m2),
    availableKm2: m2ToKm2(r.balance_m2 - r.reserved_m2),
    createdAt: iso(r.created_at),
  };
}

export function toKeyInfo(r: KeyRecord): ApiKeyInfo {
  return {
    id: r.id,
    accountId: r.account_id,
    kind: r.kind,
    prefix: r.prefix,
    createdAt: iso(r.created_at),
    revokedAt: iso(r.revoked_at),
    lastUsedAt: iso(r.last_used_at),
  };
}

export function toUsageRow(r: LedgerRecord): UsageRow {
  return {
    id: r.id,
    requestId: r.request_id,
    keyId: r.key_id,
    accountId: r.account_id,
    areaKm2: m2ToKm2(r.area_m2),
    costKm2: m2ToKm2(r.cost_m2),
    reservedKm2: m2ToKm2(r.reserved_m2),
    status: r.status,
    startedAt: iso(r.started_at),
    finishedAt: iso(r.finished_at),
  };
}

/** The 402 (or 401 for an account that is gone) for a reservation of `costM2` the account could not make. */
export function refusal(account: AccountFunds | undefined, costM2: number): ApiError {
  if (!account) return new ApiError('unauthorized', 'The account for this API key no longer exists.');
  if (account.status !== 'active') {
    return new ApiError('no_active_subscription', 'This account has no active subscription.');
  }
  const available = account.balance_m2 - account.reserved_m2;
  return new ApiError('insufficient_balance', `The remaining balance (${fmt(available)} km²) is smaller than this request's cost (${fmt(costM2)} km²).`, [
    {
      message: `balance ${fmt(account.balance_m2)} km², of which ${fmt(account.reserved_m2)} km² held by requests in progress; cost ${fmt(costM2)} km²`,
      balanceKm2: m2ToKm2(account.balance_m2),
      reservedKm2: m2ToKm2(account.reserved_m2),
      availableKm2: m2ToKm2(available),
      costKm2: m2ToKm2(costM2),
    },
  ]);
}

/** A second reservation under a request id the ledger already has. */
export function duplicateRequest(requestId: string): ApiError {
  return new ApiError('invalid_request', `Request ${requestId} is in the ledger already; a request is reserved and charged once.`);
}

function fmt(m2: number): string {
  return String(Math.round(m2) / 1_000_000);
}

/** Checks an amount given in km² and returns whole m². */
export function nonNegativeM2(km2: number, what: string): number {
  if (typeof km2 !== 'number' || !Number.isFinite(km2) || km2 < 0) {
    throw new AccountStoreError(`The ${what} must be a number of km² ≥ 0, not ${String(km2)}.`);
  }
  return km2ToM2(km2);
}

/** Checks a usage limit. */
export function usageLimit(limit: number | undefined): number {
  const n = limit ?? 50;
  if (!Number.isInteger(n) || n < 1) throw new AccountStoreError(`Limit must be a positive integer, not ${n}.`);
  return n;
}

/** RFC 6750 challenges sent with every 401. */
export const BEARER_CHALLENGE = { 'WWW-Authenticate': 'Bearer realm="city-context"' };
export const INVALID_TOKEN_CHALLENGE = { 'WWW-Authenticate': 'Bearer realm="city-context", error="invalid_token"' };
