/**
 * Premium building entitlements of an account: the premium datasets it may use, named by dataset
 * id or by country/region code (a grant for `DE` covers `DE-BE`; docs/premium-data.md "Plans").
 * The rows live in the accounts database (`premium_entitlements`, db.ts); these are the only
 * statements that touch them, so another account store implements the same three.
 */
import { datasetInfoSchema } from '../sources/premium/dataset-info.ts';
import type { Db } from './sqlite-db.ts';
import { AccountStoreError } from './types.ts';

export type PremiumEntitlementKind = 'dataset' | 'country';

/** What to grant or revoke: a dataset id (`zurich-sample`) or a country/region code (`CH`, `DE-BE`). */
export interface PremiumGrant {
  kind: PremiumEntitlementKind;
  value: string;
}

export interface PremiumEntitlement extends PremiumGrant {
  grantedAt: string;
}

/** The grant checked and spelled as stored: dataset ids as given, country codes upper-case. */
export function normalizeGrant(grant: PremiumGrant): PremiumGrant {
  const schema = grant.kind === 'dataset' ? datasetInfoSchema.shape.id : grant.kind === 'country' ? datasetInfoSchema.shape.country : null;
  if (!schema) throw new AccountStoreError(`A premium entitlement is a dataset or a country, not ${String(grant.kind)}.`);
  const parsed = schema.safeParse(typeof grant.value === 'string' ? grant.value.trim() : grant.value);
  if (!parsed.success) throw new AccountStoreError(`Not a premium ${grant.kind} ${JSON.stringify(grant.value)}: ${parsed.error.issues[0]?.message}.`);
  return { kind: grant.kind, value: parsed.data };
}

/** Adds the grant (granting twice keeps the first time). */
export function insertEntitlement(db: Db, accountId: number, grant: PremiumGrant, nowIso: string): void {
  db.prepare('INSERT OR IGNORE INTO premium_entitlements (account_id, kind, value, granted_at) VALUES (?, ?, ?, ?)').run(
    accountId,
    grant.kind,
    grant.value,
    nowIso,
  );
}

/** Removes the grant; false when the account did not hold it. */
export function deleteEntitlement(db: Db, accountId: number, grant: PremiumGrant): boolean {
  return db.prepare('DELETE FROM premium_entitlements WHERE account_id = ? AND kind = ? AND value = ?').run(accountId, grant.kind, grant.value).changes > 0;
}

/** The account's entitlements, datasets first, each kind in name order. */
export function selectEntitlements(db: Db, accountId: number): PremiumEntitlement[] {
  const rows = db.prepare('SELECT kind, value, granted_at FROM premium_entitlements WHERE account_id = ? ORDER BY kind DESC, value').all(accountId) as {
    kind: PremiumEntitlementKind;
    value: string;
    granted_at: string;
  }[];
  return rows.map((r) => ({ kind: r.kind, value: r.value, grantedAt: r.granted_at }));
}
