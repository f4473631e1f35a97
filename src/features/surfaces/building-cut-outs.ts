import { projectFlat, type LocalFrame } from '../../frame/local-frame.ts';
import { validFootprints } from '../../geometry/planar/footprint-repair.ts';
import { undergroundReason } from '../../geometry/buildings/tags/index.ts';
import type { Footprint } from '../../geometry/types.ts';
import type { OsmFeature } from '../../osm-model/feature.ts';

/** `building=*` values that are roofs without walls: the ground runs on under them. */
const OPEN_UNDERNEATH = new Set(['roof', 'carport']);

/**
 * Footprints of the buildings standing on the ground (outlines and parts, in the frame), cut out of
 * every piece of ground so that no surface lies under a building's floor. Left out, so the ground
 * runs on: building sites (`building=construction`, they are ground of kind buildingConstruction),
 * underground buildings, roofs on posts (`building=roof|carport`: a petrol station's canopy) and
 * whatever starts above the ground (`min_height` or `building:min_level` above 0, outline or part —
 * the parts that do reach the ground are cut out by themselves).
 */
export function buildingCutOuts(features: readonly OsmFeature[], frame: LocalFrame): Footprint[] {
  const out: Footprint[] = [];
  for (const f of features) {
    if ((f.layer !== 'building' && f.layer !== 'building_part') || f.kind !== 'area' || !f.polygons) continue;
    if (f.tags.building === 'construction' || undergroundReason(f.tags)) continue;
    if (OPEN_UNDERNEATH.has(f.tags.building) || startsAboveGround(f.tags)) continue;
    for (const rings of f.polygons) {
      out.push(...validFootprints({ outer: projectFlat(frame, rings[0]), holes: rings.slice(1).map((r) => projectFlat(frame, r)) }));
    }
  }
  return out;
}

function startsAboveGround(tags: Record<string, string>): boolean {
  const v = parseFloat(tags.min_height ?? tags['building:min_level'] ?? '0');
  return Number.isFinite(v) && v > 0;
}
