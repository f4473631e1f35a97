/**
 * Which premium building datasets a request may use, and the `dataAccess` its answer reports
 * (docs/premium-data.md "Plans and dataAccess"). Pure: the caller gathers the datasets covering
 * the polygon (sources/premium/coverage-query.ts), the account's entitlements and the request's
 * `buildingSources`.
 */
import type { DataAccess } from '../contract/response-schema.ts';

/** A premium dataset covering the request: its id and ISO 3166-1 alpha-2 or 3166-2 code. */
export interface CoveringPremiumDataset {
  id: string;
  country: string;
}

/** An entitlement of the account: a dataset id, or a country/region code that covers its subdivisions. */
export interface PremiumEntitlementRef {
  kind: 'dataset' | 'country';
  value: string;
}

export interface PremiumAccess {
  /** Ids of the covering datasets the request may use, in id order: the plan's `premiumDatasets`. */
  allowed: string[];
  dataAccess: DataAccess;
}

/** Whether the entitlements include the dataset: by its id, its code, or the country its region code belongs to (`DE` covers `DE-BE`). */
export function isEntitled(dataset: CoveringPremiumDataset, entitlements: readonly PremiumEntitlementRef[]): boolean {
  const code = dataset.country.toUpperCase();
  const country = code.split('-')[0];
  return entitlements.some((e) => (e.kind === 'dataset' ? e.value === dataset.id : e.value.toUpperCase() === code || e.value.toUpperCase() === country));
}

export function premiumAccess(
  covering: readonly CoveringPremiumDataset[],
  entitlements: readonly PremiumEntitlementRef[],
  buildingSources: 'all' | 'global',
): PremiumAccess {
  const sorted = [...covering].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const allowed = buildingSources === 'all' ? sorted.filter((d) => isEntitled(d, entitlements)) : [];
  const held = sorted.filter((d) => !allowed.includes(d));
  if (held.length === 0) return { allowed: allowed.map((d) => d.id), dataAccess: { granted: 'full', suppressedCountries: [], reason: null } };
  const suppressedCountries = [...new Set(held.map((d) => d.country.toUpperCase()))].sort();
  const which = `premium building data for ${suppressedCountries.join(', ')}`;
  const reason =
    buildingSources === 'global'
      ? `settings.buildingSources is "global", so the ${which} covering this area was not used and its buildings come from worldwide OpenStreetMap data.`
      : `The account's plan does not include the ${which} covering this area, so its buildings come from worldwide OpenStreetMap data.`;
  return { allowed: allowed.map((d) => d.id), dataAccess: { granted: 'global', suppressedCountries, reason } };
}
