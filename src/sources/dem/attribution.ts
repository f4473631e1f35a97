import type { DemAttribution } from './types.ts';

/** Credit line for SRTM data (data/README.md): public domain, shown but not required. */
export const SRTM_ATTRIBUTION: DemAttribution = {
  id: 'srtm',
  name: 'SRTM',
  text: 'SRTM elevation data courtesy of NASA/USGS',
  license: 'Public domain',
  url: 'https://www.usgs.gov/centers/eros/science/usgs-eros-archive-digital-elevation-shuttle-radar-topography-mission-srtm-1',
  required: false,
};

/** Credit line for a configured source without one: names the data, claims nothing about it. */
export function genericDemAttribution(id: string, name: string): DemAttribution {
  return { id, name, text: `Elevation data: ${name}`, license: 'see provider', url: '', required: false };
}

/** Completes a partial credit line from the config with the kind's default. */
export function withAttribution(base: DemAttribution, override?: Partial<DemAttribution>): DemAttribution {
  return override ? { ...base, ...override } : base;
}

/** Distinct credit lines, by id, in first-seen order. */
export function uniqueAttributions(list: Iterable<DemAttribution>): DemAttribution[] {
  const seen = new Map<string, DemAttribution>();
  for (const a of list) if (!seen.has(a.id)) seen.set(a.id, a);
  return [...seen.values()];
}
