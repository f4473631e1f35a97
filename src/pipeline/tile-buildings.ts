import { buildBuildingGroup, type BuildingContext, type BuildingMesh } from '../geometry/buildings/from-osm.ts';
import { pointInRing } from '../geometry/ring.ts';
import type { LonLatBBox, OsmSource } from '../sources/osm/types.ts';

/**
 * The buildings one tile builds. Groups (outline + parts, decided at import) are listed by their
 * extent without reading any member; a group whose stored interior point lies in the polygon is
 * owned by the tile holding that point, so every other tile skips it unread. Only groups this
 * tile owns — and the few whose interior point lies outside the polygon, whose anchor needs their
 * geometry — have their members read, decoded and built.
 */
export function buildTileBuildings(source: OsmSource, bbox: LonLatBBox, ctx: BuildingContext): BuildingMesh[] {
  const wanted = source.buildingGroups(bbox).filter((g) => {
    const [x, y] = ctx.frame.toLocal(g.rep[0], g.rep[1]);
    return !pointInRing(x, y, ctx.polygon) || ctx.owns([x, y]);
  });
  const members = source.buildingGroupMembers(wanted.map((g) => g.gid));
  const out: BuildingMesh[] = [];
  for (const g of wanted) {
    const [principal, ...parts] = members.get(g.gid) ?? [];
    if (principal) for (const b of buildBuildingGroup({ principal, parts, rep: g.rep }, ctx)) out.push(b);
  }
  return out;
}
