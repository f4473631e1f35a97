/** The accounts module's public surface. */
export { AccountStore, Reservation } from './account-store.ts';
export type { AccountStoreOptions, CreatedKey, NewAccount } from './account-store.ts';
export { ensureDemoAccount, DEMO_KEY_FILE } from './demo-account.ts';
export type { DemoAccount, DemoAccountOptions } from './demo-account.ts';
export type { ReleaseStatus } from './ledger.ts';
export { bearerToken } from './keys.ts';
export type { PremiumEntitlement, PremiumEntitlementKind, PremiumGrant } from './premium-entitlements.ts';
export { AccountStoreError, KEY_KINDS } from './types.ts';
export type { Account, ApiKeyInfo, AuthContext, KeyKind, PlanStatus, UsageRow, UsageStatus } from './types.ts';
export { costM2ForArea, MIN_COST_M2 } from './units.ts';
