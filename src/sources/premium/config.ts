/**
 * CITY_PREMIUM_SOURCES: the premium datasets the service imports at start when its store lacks
 * them (like CITY_OSM_EXTRACT for OSM). Unset means the two bundled samples (data/premium/).
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { REPO_ROOT } from '../../repo-root.ts';
import { datasetInfoSchema } from './dataset-info.ts';
import { importPremiumDataset } from './import.ts';
import type { ImportReport } from './import-report.ts';
import { listDatasets, openPremiumStore } from './store.ts';

/** The store file in the service's data directory. */
export const PREMIUM_STORE_FILE = 'premium.sqlite';

export const premiumSourceSchema = datasetInfoSchema.extend({
  /** A city model file or a directory of them; relative paths are from the repository root. */
  path: z.string().min(1),
});
export type PremiumSourceConfig = z.infer<typeof premiumSourceSchema>;

export const premiumSourcesSchema = z.array(premiumSourceSchema).superRefine((sources, ctx) => {
  const seen = new Set<string>();
  for (const [i, s] of sources.entries()) {
    if (seen.has(s.id)) ctx.addIssue({ code: 'custom', path: [i, 'id'], message: `dataset id ${s.id} is listed twice` });
    seen.add(s.id);
  }
});

/** The samples in data/premium/ with their credit lines (data/premium/README.md). */
export const BUNDLED_PREMIUM_SOURCES: readonly PremiumSourceConfig[] = [
  {
    id: 'zurich-sample',
    path: 'data/premium/zurich_subset_lod2.json',
    country: 'CH',
    name: 'Zürich LoD2 buildings (sample)',
    license: 'MIT (cjio test data)',
    attribution: 'Zürich LoD2 buildings from the cjio test data (MIT-licensed repository)',
    url: 'https://github.com/cityjson/cjio',
  },
  {
    id: 'berlin-sample',
    path: 'data/premium/berlin_open_data_sample_data.citygml',
    country: 'DE-BE',
    name: 'Berlin LoD2 buildings (sample)',
    license: 'Berlin 3D city model open data (as redistributed in the libcitygml test data)',
    attribution: 'Berlin 3D city model open data, credit: Berlin Partner für Wirtschaft und Technologie GmbH (Berlin 3D download portal)',
  },
];

/** CITY_PREMIUM_SOURCES parsed and checked (paths resolved from the repository root); unset = the bundled samples. */
export function premiumSourcesFromEnv(value: string | undefined): PremiumSourceConfig[] {
  let sources: PremiumSourceConfig[];
  if (value === undefined || value.trim() === '') sources = [...BUNDLED_PREMIUM_SOURCES];
  else {
    let json: unknown;
    try {
      json = JSON.parse(value);
    } catch (error) {
      throw new Error(`CITY_PREMIUM_SOURCES is not JSON: ${error instanceof Error ? error.message : String(error)}`);
    }
    const parsed = premiumSourcesSchema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new Error(`CITY_PREMIUM_SOURCES: ${issue.path.join('.') || 'the list'}: ${issue.message}`);
    }
    sources = parsed.data;
  }
  return sources.map((s) => ({ ...s, path: resolve(REPO_ROOT, s.path) }));
}

export interface PremiumSourcesOutcome {
  /** Reports of the datasets imported now. */
  imported: ImportReport[];
  /** Ids already in the store, left as they are. */
  present: string[];
}

/**
 * Imports every configured dataset the store in `dataDir` does not hold yet, one transaction each;
 * the first failure throws (its message names the file, where and what), after the datasets
 * before it are in.
 */
export async function importPremiumSources(
  sources: readonly PremiumSourceConfig[],
  dataDir: string,
  log: (line: string) => void = () => {},
): Promise<PremiumSourcesOutcome> {
  const storePath = join(dataDir, PREMIUM_STORE_FILE);
  const outcome: PremiumSourcesOutcome = { imported: [], present: [] };
  if (sources.length === 0) return outcome;
  const known = new Set<string>();
  if (existsSync(storePath)) {
    const db = openPremiumStore(storePath);
    try {
      for (const d of listDatasets(db)) known.add(d.id);
    } finally {
      db.close();
    }
  }
  for (const source of sources) {
    if (known.has(source.id)) {
      outcome.present.push(source.id);
      continue;
    }
    const { path, ...info } = source;
    log(`premium: importing ${source.id} from ${path}`);
    const report = await importPremiumDataset(storePath, path, info);
    log(`premium: ${source.id}: ${report.buildings} buildings, ${report.parts} parts, ${report.skipped.count} left out (${report.seconds.toFixed(1)} s)`);
    outcome.imported.push(report);
  }
  return outcome;
}
