import type { LocalFrame } from '../../frame/local-frame.ts';
import { standingPieces, type BuildingGroupInput } from '../../geometry/buildings/group-layout.ts';
import type { SpecDefaults } from '../../geometry/buildings/building-spec.ts';
import type { Footprint } from '../../geometry/types.ts';

/** `building=*` values that are roofs without walls: the ground runs on under them. */
const OPEN_UNDERNEATH = new Set(['roof', 'carport']);

/**
 * Footprints cut out of every piece of ground (in the frame), so that no surface lies under a
 * building's floor: where the buildings family's pieces stand on the ground (geometry/buildings
 * group-layout.ts `standingPieces`) — parts reaching the ground, and the outline only where its
 * parts leave area uncovered. So nothing is cut under a part that starts above the ground
 * (`min_height` or `building:min_level` above 0, outline or part), nor under an outline whose parts
 * do not all stand, nor under underground buildings (except the buildings standing on them). Left
 * out as well, so the ground runs on: building sites (`building=construction`, they are ground of
 * kind buildingConstruction) and roofs on posts (`building=roof|carport`: a petrol station's canopy).
 */
export function buildingCutOuts(groups: readonly BuildingGroupInput[], frame: LocalFrame, defaults: SpecDefaults): Footprint[] {
  const out: Footprint[] = [];
  for (const group of groups)
    for (const { footprint, feature } of standingPieces(group, defaults, frame)) {
      const building = feature.tags.building;
      if (building === 'construction' || OPEN_UNDERNEATH.has(building)) continue;
      out.push(footprint);
    }
  return out;
}
