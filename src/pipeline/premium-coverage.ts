/**
 * Which premium datasets cover a request's polygon, from their coverage polygons' boxes (no
 * building read): decided up front, so a polygon outside the OSM data but inside a premium dataset
 * still gets its premium buildings (and is charged for them), and so the caller can tell which
 * datasets it held back.
 */
import type { ContextRequest } from '../contract/types.ts';
import type { FamilySources } from '../features/family.ts';
import { premiumPlan } from '../features/buildings/premium-plan.ts';
import { datasetsCovering, premiumReader } from '../sources/premium/request-reads.ts';

/**
 * The datasets the request may use (`sources.premium.datasets`, absent = every dataset in the
 * store; none with `buildingSources: global`) whose coverage meets the polygon's box, sorted.
 */
export function premiumDatasetsCovering(req: ContextRequest, sources: FamilySources): string[] {
  const plan = premiumPlan(req, sources);
  const db = plan.premiumStore ? premiumReader(plan.premiumStore) : null;
  if (!db) return [];
  let minLon = Infinity,
    minLat = Infinity,
    maxLon = -Infinity,
    maxLat = -Infinity;
  for (const [lat, lon] of req.polygon) {
    minLon = Math.min(minLon, lon);
    maxLon = Math.max(maxLon, lon);
    minLat = Math.min(minLat, lat);
    maxLat = Math.max(maxLat, lat);
  }
  return datasetsCovering(db, [minLon, minLat, maxLon, maxLat], new Set(plan.premiumDatasets));
}

/** The premium part of a pipeline's family sources: the store, and the datasets a request may use. */
export function premiumSources(storePath: string | null | undefined, datasets: readonly string[] | undefined): FamilySources['premium'] {
  return storePath ? { storePath, ...(datasets ? { datasets } : {}) } : null;
}
