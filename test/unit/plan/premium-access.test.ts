/** premiumAccess over the whole matrix: covering datasets × entitlements × buildingSources. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { DataAccessSchema } from '../../../src/contract/response-schema.ts';
import { isEntitled, premiumAccess, type CoveringPremiumDataset, type PremiumEntitlementRef } from '../../../src/plan/premium-access.ts';

const ZURICH = { id: 'zurich-sample', country: 'CH' };
const BERLIN = { id: 'berlin-sample', country: 'DE-BE' };
const BAVARIA = { id: 'bavaria', country: 'DE-BY' };
const NRW = { id: 'nrw', country: 'DE-NW' };
const dataset = (value: string): PremiumEntitlementRef => ({ kind: 'dataset', value });
const country = (value: string): PremiumEntitlementRef => ({ kind: 'country', value });

test('none covering: full whatever the plan and buildingSources', () => {
  for (const sources of ['all', 'global'] as const) {
    for (const entitlements of [[], [country('CH')]]) {
      assert.deepEqual(premiumAccess([], entitlements, sources), { allowed: [], dataAccess: { granted: 'full', suppressedCountries: [], reason: null } });
    }
  }
});

test('entitled by dataset, by its region code, or by the country of its region: used, full', () => {
  for (const entitlements of [[dataset('berlin-sample')], [country('DE-BE')], [country('DE')], [country('de')], [country('CH'), country('DE')]]) {
    assert.deepEqual(premiumAccess([BERLIN], entitlements, 'all'), {
      allowed: ['berlin-sample'],
      dataAccess: { granted: 'full', suppressedCountries: [], reason: null },
    });
  }
});

test('not entitled: held back, global, with its code and a sentence about the plan', () => {
  for (const entitlements of [[], [dataset('zurich-sample')], [country('DE-BY')], [country('CH')], [country('D')], [dataset('DE-BE')]]) {
    const r = premiumAccess([BERLIN], entitlements, 'all');
    assert.deepEqual(r.allowed, []);
    assert.equal(r.dataAccess.granted, 'global');
    assert.deepEqual(r.dataAccess.suppressedCountries, ['DE-BE']);
    assert.match(r.dataAccess.reason!, /^The account's plan does not include the premium building data for DE-BE covering this area/);
  }
  // a region grant does not cover its country's other regions, nor the country's own dataset
  assert.deepEqual(premiumAccess([BAVARIA, { id: 'de-all', country: 'DE' }], [country('DE-BE')], 'all').dataAccess.suppressedCountries, ['DE', 'DE-BY']);
});

test('buildingSources global holds back every covering dataset, entitled or not, and says so', () => {
  const r = premiumAccess([ZURICH, BERLIN], [country('CH'), country('DE')], 'global');
  assert.deepEqual(r.allowed, []);
  assert.deepEqual(r.dataAccess.suppressedCountries, ['CH', 'DE-BE']);
  assert.equal(r.dataAccess.granted, 'global');
  assert.match(r.dataAccess.reason!, /^settings\.buildingSources is "global", so the premium building data for CH, DE-BE covering this area was not used/);
});

test('partly entitled: the entitled datasets are used, the rest held back; one code per country/region however many datasets', () => {
  const r = premiumAccess([NRW, ZURICH, BAVARIA, { id: 'munich', country: 'de-by' }], [dataset('zurich-sample'), dataset('nrw')], 'all');
  assert.deepEqual(r.allowed, ['nrw', 'zurich-sample']);
  assert.equal(r.dataAccess.granted, 'global');
  assert.deepEqual(r.dataAccess.suppressedCountries, ['DE-BY']);
});

test('property: allowed is exactly the entitled covering datasets under "all", none under "global"; full exactly when nothing is held back', () => {
  const codes = ['CH', 'DE', 'DE-BE', 'DE-BY', 'NL', 'JP-13'];
  const covering = fc.uniqueArray(fc.record({ id: fc.constantFrom('a', 'b', 'c', 'd', 'e'), country: fc.constantFrom(...codes) }), {
    selector: (d) => d.id,
    maxLength: 5,
  });
  const grant = fc.oneof(fc.constantFrom('a', 'b', 'c', 'x').map(dataset), fc.constantFrom(...codes, 'FR').map(country));
  fc.assert(
    fc.property(covering, fc.array(grant, { maxLength: 4 }), fc.constantFrom('all', 'global'), (cover: CoveringPremiumDataset[], grants, sources) => {
      const r = premiumAccess(cover, grants, sources as 'all' | 'global');
      DataAccessSchema.parse(r.dataAccess);
      // the oracle, spelled out differently: a grant names the dataset, its code, or the code before its '-'
      const entitled = (d: CoveringPremiumDataset) =>
        grants.some((g) => (g.kind === 'dataset' ? g.value === d.id : [d.country, d.country.slice(0, 2)].includes(g.value)));
      const expected = sources === 'all' ? cover.filter(entitled).map((d) => d.id) : [];
      assert.deepEqual(r.allowed, expected.sort());
      const held = cover.filter((d) => !expected.includes(d.id));
      assert.deepEqual(r.dataAccess.suppressedCountries, [...new Set(held.map((d) => d.country))].sort());
      assert.equal(r.dataAccess.granted, held.length === 0 ? 'full' : 'global');
      assert.equal(r.dataAccess.reason === null, held.length === 0);
      for (const d of cover) assert.equal(isEntitled(d, grants), entitled(d));
    }),
  );
});
