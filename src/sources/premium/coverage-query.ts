/**
 * Which premium datasets cover a request: those with a coverage polygon (store.ts, grown footprints)
 * that meets the request polygon. Read from the coverage table and its R-tree only, never from the
 * buildings, so it costs little enough to ask before every request.
 */
import type Database from 'better-sqlite3';
import { polygonsMeet } from '../../geometry/planar/polygons-meet.ts';
import { coverageInBox, listDatasets } from './store.ts';

/** A dataset covering the request: its id and its ISO 3166-1 alpha-2 or 3166-2 code. */
export interface CoveringDataset {
  id: string;
  country: string;
}

/** The datasets whose coverage meets the polygon (flat lon, lat pairs, one ring, closing point allowed), in id order. */
export function datasetsCovering(db: Database.Database, ringLonLat: readonly number[]): CoveringDataset[] {
  const ring = [...ringLonLat];
  let minLon = Infinity,
    minLat = Infinity,
    maxLon = -Infinity,
    maxLat = -Infinity;
  for (let i = 0; i + 1 < ring.length; i += 2) {
    minLon = Math.min(minLon, ring[i]);
    maxLon = Math.max(maxLon, ring[i]);
    minLat = Math.min(minLat, ring[i + 1]);
    maxLat = Math.max(maxLat, ring[i + 1]);
  }
  if (!(minLon <= maxLon && minLat <= maxLat)) return [];
  const ids = new Set<string>();
  for (const c of coverageInBox(db, [minLon, minLat, maxLon, maxLat])) {
    if (!ids.has(c.dataset) && polygonsMeet([ring], c.polygon)) ids.add(c.dataset);
  }
  if (ids.size === 0) return [];
  return listDatasets(db)
    .filter((d) => ids.has(d.id))
    .map((d) => ({ id: d.id, country: d.country }));
}
