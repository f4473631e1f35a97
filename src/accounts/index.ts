/** The accounts module's public surface. */
export type { AccountStore, AccountStoreOptions, CreatedKey, NewAccount, ReserveOptions } from './account-store.ts';
export { openAccountStore } from './open-store.ts';
export type { AccountStoreTarget } from './open-store.ts';
export { SqliteAccountStore } from './sqlite-store.ts';
export { PostgresAccountStore } from './postgres-store.ts';
export { Reservation } from './reservation.ts';
export type { ReleaseStatus } from './reservation.ts';
export { ensureDemoAccount, DEMO_KEY_FILE } from './demo-account.ts';
export type { DemoAccount, DemoAccountOptions } from './demo-account.ts';
export { bearerToken } from './keys.ts';
export type { PremiumEntitlement, PremiumEntitlementKind, PremiumGrant } from './premium-entitlements.ts';
export { AccountStoreError, KEY_KINDS } from './types.ts';
export type { Account, ApiKeyInfo, AuthContext, KeyKind, PlanStatus, UsageRow, UsageStatus } from './types.ts';
export { costM2ForArea, MIN_COST_M2 } from './units.ts';
