import { buildBuildingGroup, type BuildingMesh } from '../../geometry/buildings/from-osm.ts';
import type { RoofShape } from '../../geometry/buildings/roofs/types.ts';
import { loadRoofs } from '../../geometry/buildings/roofs/index.ts';
import { pointInRing } from '../../geometry/ring.ts';
import { OSM_ATTRIBUTION } from '../../sources/attributions.ts';
import { planOf, type FeatureFamily, type TileContext } from '../family.ts';
import { encodeMeshes } from '../encode-meshes.ts';
import { cropSolids } from '../../geometry/crop/crop-solids.ts';

/**
 * Buildings (Simple 3D Buildings; geometry/buildings has the tag parsers and roof builders).
 * Groups (outline + parts, decided at import) are listed by their extent without reading any
 * member; a group whose stored interior point lies in the polygon is owned by the tile holding
 * that point, so every other tile skips it unread. Only groups this tile owns — and the few whose
 * interior point lies outside the polygon, whose anchor needs their geometry — are read, decoded
 * and built.
 */
export const buildingsFamily: FeatureFamily<BuildingsPlan> = {
  name: 'buildings',
  group: 'buildings',
  plan: ({ settings: s }) => ({ defaultLevels: s.defaultLevels, defaultLevelHeight: s.defaultLevelHeight, defaultRoofType: s.defaultRoofType }),
  async build(tile, out) {
    await loadRoofs();
    let t = performance.now();
    const built = tileBuildings(tile);
    out.timings.build = (out.timings.build ?? 0) + performance.now() - t;
    t = performance.now();
    const buildings = tile.crop ? cropSolids(built, tile.crop) : built; // cropScene: cut and capped
    if (tile.crop) out.timings.crop = (out.timings.crop ?? 0) + performance.now() - t;
    t = performance.now();
    out.groups.buildings = encodeMeshes(tile, out, buildings, true);
    out.timings.encode = (out.timings.encode ?? 0) + performance.now() - t;
    out.attributions.push(OSM_ATTRIBUTION);
  },
};

/** The request's settings for buildings without height or roof data. */
export interface BuildingsPlan {
  defaultLevels: number;
  defaultLevelHeight: number;
  defaultRoofType: string;
}

/** The buildings one tile builds, in the local frame. */
export function tileBuildings(tile: TileContext): BuildingMesh[] {
  const { task, frame, polygon } = tile;
  const plan = planOf(buildingsFamily, task);
  if (!plan) throw new Error('a buildings task planned without the family plans (src/features/index.ts planTasks)');
  const ctx = {
    frame,
    polygon,
    defaultLevels: plan.defaultLevels,
    defaultLevelHeight: plan.defaultLevelHeight,
    defaultRoofType: plan.defaultRoofType as RoofShape,
    owns: tile.owns,
    ground: tile.ground,
  };
  const wanted = tile.source.buildingGroups(tile.lonLatBBox()).filter((g) => {
    const [x, y] = frame.toLocal(g.rep[0], g.rep[1]);
    return !pointInRing(x, y, polygon) || tile.owns([x, y]);
  });
  const members = tile.source.buildingGroupMembers(wanted.map((g) => g.gid));
  const out: BuildingMesh[] = [];
  for (const g of wanted) {
    const [principal, ...parts] = members.get(g.gid) ?? [];
    if (principal) for (const b of buildBuildingGroup({ principal, parts, rep: g.rep }, ctx)) out.push(b);
  }
  return out;
}
