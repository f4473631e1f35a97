/**
 * The premium side of one request, decided before its reservation: which premium building datasets
 * cover the polygon (the premium store's coverage), which of them the account is entitled to, and
 * so the `premiumDatasets` its plan may use and the `dataAccess` its answer carries.
 */
import { existsSync } from 'node:fs';
import type { AccountStore, AuthContext } from '../accounts/index.ts';
import type { ContextRequest } from '../contract/types.ts';
import { premiumAccess, type PremiumAccess } from '../plan/premium-access.ts';
import { datasetsCovering, type CoveringDataset } from '../sources/premium/coverage-query.ts';
import { openPremiumStore } from '../sources/premium/store.ts';

export function requestPremiumAccess(
  request: ContextRequest,
  auth: AuthContext,
  accounts: AccountStore,
  premiumStorePath: string | null | undefined,
): Promise<PremiumAccess> {
  return accounts
    .premiumEntitlements(auth.accountId)
    .then((entitled) => premiumAccess(coveringDatasets(request, premiumStorePath), entitled, request.settings.buildingSources));
}

/** The datasets covering the request polygon; none without a premium store. */
function coveringDatasets(request: ContextRequest, premiumStorePath: string | null | undefined): CoveringDataset[] {
  if (!premiumStorePath || !existsSync(premiumStorePath)) return [];
  // opened per request (well under a millisecond): an import that adds a dataset is seen at once, and nothing stays open
  const db = openPremiumStore(premiumStorePath, { readonly: true });
  try {
    return datasetsCovering(
      db,
      request.polygon.flatMap(([lat, lon]) => [lon, lat]),
    );
  } finally {
    db.close();
  }
}
