/**
 * Which premium datasets a request's buildings may use, their credit lines, and what cropScene
 * does to a premium building's roof/wall ranges.
 */
import type { ContextRequest } from '../../contract/types.ts';
import type { BuildingMesh } from '../../geometry/buildings/from-osm.ts';
import type { Attribution } from '../../sources/attributions.ts';
import { premiumDatasetsAt } from '../../sources/premium/request-reads.ts';
import type { PremiumDataset } from '../../sources/premium/store.ts';
import type { FamilySources } from '../family.ts';

/** The premium part of the buildings plan (plain data in every tile task). */
export interface PremiumPlan {
  /** The premium store; null when the request uses none. */
  premiumStore: string | null;
  /** Ids of the datasets the request may use (entitled and asked for), sorted; empty = OSM only. */
  premiumDatasets: string[];
}

/**
 * `buildingSources: global` uses none; `all` the datasets the caller may use (`sources.premium.datasets`;
 * absent = every dataset in the store) that the store holds.
 */
export function premiumPlan(req: ContextRequest, sources: FamilySources): PremiumPlan {
  const premium = sources.premium;
  if (!premium || req.settings.buildingSources === 'global') return { premiumStore: null, premiumDatasets: [] };
  const inStore = premiumDatasetsAt(premium.storePath).map((d) => d.id);
  const allowed = premium.datasets ? new Set(premium.datasets) : null;
  const datasets = inStore.filter((id) => !allowed || allowed.has(id)).sort();
  return { premiumStore: datasets.length > 0 ? premium.storePath : null, premiumDatasets: datasets };
}

/** A dataset's credit line as the response lists it (id `premium:<dataset>`). */
export function premiumAttribution(d: PremiumDataset): Attribution {
  return { id: `premium:${d.id}`, name: d.name, text: d.attribution ?? d.name, license: d.license ?? '', url: d.url ?? '', required: true };
}

/**
 * A premium building cut by cropScene no longer has its triangles in the roof/wall/floor/other
 * ranges of `surfaces` (the cut re-triangulates and caps it): the ranges go and a note says so.
 */
export function uncutSurfaces(items: BuildingMesh[]): BuildingMesh[] {
  for (const { descriptor: d } of items) {
    if (!d.cropped || !d.surfaces) continue;
    delete d.surfaces;
    d.dataNotes = [
      ...((d.dataNotes as string[] | undefined) ?? []),
      'cropScene: cut along the polygon; the roof/wall ranges (surfaces) do not apply to the cut mesh',
    ];
  }
  return items;
}
