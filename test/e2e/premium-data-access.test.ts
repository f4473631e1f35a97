/**
 * `dataAccess` over HTTP, on the real service with the two bundled premium samples in its store:
 * entitled / not entitled / `buildingSources: global` / an area no premium dataset covers (Monaco) /
 * an area half covered (the Berlin block's east edge), in geometry answers and in an export answer.
 * The cost of a request does not depend on any of it.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ExportResponseSchema, GeometryResponseSchema } from '../../src/contract/response-schema.ts';
import type { RunningService } from '../../src/service.ts';
import { postContext, startTestService } from '../support/service/http.ts';
import { MONACO_CENTRE, square } from '../support/polygons.ts';
import { BERLIN_SAMPLE_EAST_EDGE, ZURICH_SAMPLE_BUILDING, importBundledSamples } from '../support/premium-areas.ts';

let svc: RunningService;
let dataDir: string;
const keys: Record<string, string> = {};

before(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'cc-premium-access-'));
  await importBundledSamples(dataDir);
  svc = await startTestService({ dataDir });
  keys.demo = svc.demo!.key; // entitled to zurich-sample and berlin-sample
  const account = async (name: string, grants: { kind: 'dataset' | 'country'; value: string }[]) => {
    const a = await svc.accounts.createAccount({ name, balanceKm2: 50 });
    for (const g of grants) await svc.accounts.grantPremium(a.id, g);
    return (await svc.accounts.createKey(a.id)).key;
  };
  keys.none = await account('no premium', []);
  keys.germany = await account('Germany', [{ kind: 'country', value: 'DE' }]);
  keys.swiss = await account('Switzerland', [{ kind: 'country', value: 'CH' }]);
});
after(async () => {
  await svc?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const FULL = { granted: 'full', suppressedCountries: [], reason: null };
const BERLIN_HALF = square(...BERLIN_SAMPLE_EAST_EDGE, 400);
const ZURICH = square(...ZURICH_SAMPLE_BUILDING, 200);
const MONACO = square(...MONACO_CENTRE, 300);

async function dataAccess(key: string, polygon: [number, number][], settings: Record<string, unknown> = {}) {
  const r = await postContext(svc.url, keys[key], { polygon, settings: { geometry: ['buildings'], ...settings } });
  assert.equal(r.status, 200, r.text.slice(0, 300));
  GeometryResponseSchema.parse(r.json);
  assert.deepEqual(Object.keys(r.json).slice(-1), ['dataAccess'], 'dataAccess ends the answer');
  return { dataAccess: r.json.dataAccess, cost: r.headers['x-cost-km2'] };
}

test('entitled: an area half covered by the Berlin sample, and a Zürich building, are granted in full', async () => {
  assert.deepEqual((await dataAccess('demo', BERLIN_HALF)).dataAccess, FULL);
  assert.deepEqual((await dataAccess('germany', BERLIN_HALF)).dataAccess, FULL, 'a grant for DE covers DE-BE');
  assert.deepEqual((await dataAccess('demo', ZURICH)).dataAccess, FULL);
  assert.deepEqual((await dataAccess('swiss', ZURICH)).dataAccess, FULL);
});

test('not entitled: global, the dataset held back named by its code, one sentence about the plan', async () => {
  for (const [key, polygon, code] of [
    ['none', BERLIN_HALF, 'DE-BE'],
    ['swiss', BERLIN_HALF, 'DE-BE'],
    ['none', ZURICH, 'CH'],
    ['germany', ZURICH, 'CH'],
  ] as const) {
    const { dataAccess: d } = await dataAccess(key, polygon as [number, number][]);
    assert.equal(d.granted, 'global', `${key} ${code}`);
    assert.deepEqual(d.suppressedCountries, [code]);
    assert.match(d.reason, new RegExp(`^The account's plan does not include the premium building data for ${code} covering this area`));
  }
});

test('buildingSources global: held back even when entitled, and the reason says why', async () => {
  const { dataAccess: d } = await dataAccess('demo', BERLIN_HALF, { buildingSources: 'global' });
  assert.equal(d.granted, 'global');
  assert.deepEqual(d.suppressedCountries, ['DE-BE']);
  assert.match(d.reason, /^settings\.buildingSources is "global"/);
});

test('no premium coverage (Monaco): full for every account and either buildingSources, at the same cost', async () => {
  const costs = new Set<unknown>();
  for (const key of ['demo', 'none', 'germany']) {
    for (const buildingSources of ['all', 'global']) {
      const r = await dataAccess(key, MONACO, { buildingSources });
      assert.deepEqual(r.dataAccess, FULL, `${key} ${buildingSources}`);
      costs.add(r.cost);
    }
  }
  assert.equal(costs.size, 1, `one cost per km² whatever the plan: ${[...costs]}`);
  assert.ok(Number([...costs][0]) > 0);
});

test('the cost of a half-covered area does not depend on the plan: the entitled pay the area as anywhere, the rest get an empty answer free', async () => {
  // this service's OSM data is Monaco's: in Berlin only the premium buildings have data, so for an
  // account without them the answer is empty, and empty answers are free (docs/api.md)
  const a = await dataAccess('demo', BERLIN_HALF);
  const b = await dataAccess('none', BERLIN_HALF);
  const germany = await dataAccess('germany', BERLIN_HALF);
  assert.ok(Number(a.cost) > 0, `entitled: ${a.cost} km²`);
  assert.equal(germany.cost, a.cost, 'every entitled account pays the same');
  assert.equal(b.cost, '0.0000', 'not entitled: nothing to build here, nothing charged');
});

test('an export answer carries dataAccess too', async () => {
  const exported = async (key: string, polygon: [number, number][]) => {
    const r = await postContext(svc.url, keys[key], { polygon, settings: { geometry: ['buildings'] }, export: { format: 'obj' } });
    assert.equal(r.status, 200, r.text.slice(0, 300));
    return ExportResponseSchema.parse(r.json).dataAccess;
  };
  assert.deepEqual(await exported('demo', BERLIN_HALF), FULL);
  const held = await exported('none', BERLIN_HALF);
  assert.deepEqual([held.granted, held.suppressedCountries], ['global', ['DE-BE']]);
  assert.deepEqual(await exported('none', MONACO), FULL);
});
