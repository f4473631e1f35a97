/** Places of the bundled premium samples (data/premium/), for requests that a premium dataset covers, half covers or does not cover. */
import { join } from 'node:path';
import { importPremiumSources, PREMIUM_STORE_FILE, premiumSourcesFromEnv } from '../../src/sources/premium/config.ts';

/** A corner of a Zürich sample building ([lat, lon]); the sample's buildings lie scattered over ~10 km. */
export const ZURICH_SAMPLE_BUILDING = [47.373058, 8.565557] as const;

/** The Berlin sample's box (one block around 52.5135 N, 13.3877 E, ~230 m × 340 m): [minLon, minLat, maxLon, maxLat]. */
export const BERLIN_SAMPLE_BOX = [13.386069, 52.512039, 13.389423, 52.515083] as const;

/** [lat, lon] on the Berlin sample's east edge: a square centred here is about half covered. */
export const BERLIN_SAMPLE_EAST_EDGE = [52.513561, 13.389423] as const;

/** Imports the two bundled samples (zurich-sample CH, berlin-sample DE-BE) into `<dataDir>/premium.sqlite`; returns its path. */
export async function importBundledSamples(dataDir: string): Promise<string> {
  await importPremiumSources(premiumSourcesFromEnv(undefined), dataDir);
  return join(dataDir, PREMIUM_STORE_FILE);
}
