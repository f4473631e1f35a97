import { projectFlat, type LocalFrame } from '../../frame/local-frame.ts';
import { SEA_AREAS_DEFAULTS, type Coastline } from '../../geometry/surfaces/sea/index.ts';
import type { LonLatBBox, OsmFeature } from '../../osm-model/feature.ts';
import type { OsmSource } from '../../sources/osm/types.ts';
import type { GroundSquare } from './ground-square.ts';

/**
 * The `natural=coastline` ways around a tile, in `frame`: OSM maps the sea only by them
 * (geometry/surfaces/sea decides which side of them a square lies on); they are few, so they are
 * read as far around the tile as the sea rule looks (1 km). Used by the ground and by the forest
 * fill (nothing is planted in the sea).
 */
export function tileCoastlines(tile: GroundSquare, frame: LocalFrame = tile.frame, reach: number = SEA_AREAS_DEFAULTS.nearDistance): Coastline[] {
  const out: Coastline[] = [];
  for (const f of coastlinesIn(tile.source, tile.lonLatBBox(reach))) out.push({ id: f.id, points: projectFlat(frame, f.line!) });
  return out;
}

/** How far around a tile the sea rule may look for coastline (m): far when the store's coastlines are in memory, else as far as a query of the store stays cheap. */
export const FAR_COAST_REACH = { cached: 256_000, queried: 16_000 } as const;

/** What the store holds of coastline: whether any, and how far around a tile it may be searched (FAR_COAST_REACH). */
export function coastSearch(source: OsmSource): { any: boolean; reach: number } {
  let c = cache.get(source);
  if (c === undefined) cache.set(source, (c = loadAll(source)));
  return c === null ? { any: true, reach: FAR_COAST_REACH.queried } : { any: c.features.length > 0, reach: FAR_COAST_REACH.cached };
}

/** A store's coastlines are kept in memory per thread while they stay under this many points. */
const MAX_CACHED_POINTS = 500_000;

interface Cached {
  features: OsmFeature[];
  boxes: Float64Array;
}

const cache = new WeakMap<OsmSource, Cached | null>();

/**
 * The coastlines whose extent meets `bbox`, in store order — what a query of the water layer with
 * that box returns, filtered. A query with a 2.5 km box walks every feature there (the store's
 * R-tree is not per layer): ~7 ms a tile in a dense city for a handful of coastlines. So a store's
 * coastlines are read once per thread and filtered here, unless there are too many (a whole
 * country's coast): then each tile queries as before.
 */
function coastlinesIn(source: OsmSource, bbox: LonLatBBox): OsmFeature[] {
  let c = cache.get(source);
  if (c === undefined) cache.set(source, (c = loadAll(source)));
  if (c === null) return source.query(bbox, ['water']).filter(isCoastline);
  const out: OsmFeature[] = [];
  const b = c.boxes;
  for (let k = 0; k < c.features.length; k++) {
    if (b[4 * k] <= bbox.maxLon && b[4 * k + 2] >= bbox.minLon && b[4 * k + 1] <= bbox.maxLat && b[4 * k + 3] >= bbox.minLat) out.push(c.features[k]);
  }
  return out;
}

function loadAll(source: OsmSource): Cached | null {
  const features = source.query({ minLon: -180, minLat: -90, maxLon: 180, maxLat: 90 }, ['water']).filter(isCoastline);
  let points = 0;
  for (const f of features) points += f.line!.length / 2;
  if (points > MAX_CACHED_POINTS) return null;
  const boxes = new Float64Array(4 * features.length);
  features.forEach((f, k) => {
    let minLon = Infinity,
      minLat = Infinity,
      maxLon = -Infinity,
      maxLat = -Infinity;
    const l = f.line!;
    for (let i = 0; i < l.length; i += 2) {
      if (l[i] < minLon) minLon = l[i];
      if (l[i] > maxLon) maxLon = l[i];
      if (l[i + 1] < minLat) minLat = l[i + 1];
      if (l[i + 1] > maxLat) maxLat = l[i + 1];
    }
    boxes.set([minLon, minLat, maxLon, maxLat], 4 * k);
  });
  return { features, boxes };
}

function isCoastline(f: OsmFeature): boolean {
  return f.kind === 'line' && !!f.line && f.tags.natural === 'coastline';
}
