import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** What the EPSG registry (the epsg-index package) says about a code. */
export interface EpsgEntry {
  code: number;
  name: string;
  /** e.g. CRS-PROJCRS, CRS-GEOGCRS. */
  kind: string;
  proj4: string;
  /** e.g. metre, degree, US survey foot, foot. */
  unit: string | null;
  /** Area of use, degrees: [north, west, south, east] (west > east when it crosses 180°). */
  bbox: [number, number, number, number] | null;
  /** Area of use in words. */
  area: string | null;
}

const cache = new Map<number, EpsgEntry | null>();

/** The EPSG registry entry of a code, or null when the registry has no usable proj4 definition. */
export function lookupEpsg(code: number): EpsgEntry | null {
  if (!Number.isInteger(code) || code <= 0 || code > 999999) return null;
  let entry = cache.get(code);
  if (entry !== undefined) return entry;
  try {
    const raw = require(`epsg-index/s/${code}.json`) as {
      name: string;
      kind: string;
      proj4?: string;
      unit?: string | null;
      bbox?: [number, number, number, number];
      area?: string;
    };
    entry = raw.proj4
      ? { code, name: raw.name, kind: raw.kind, proj4: raw.proj4, unit: raw.unit ?? null, bbox: raw.bbox ?? null, area: raw.area ?? null }
      : null;
  } catch {
    entry = null;
  }
  cache.set(code, entry);
  return entry;
}
