import { buildBuildingGroup, type BuildingMesh } from '../../geometry/buildings/from-osm.ts';
import type { RoofShape } from '../../geometry/buildings/roofs/types.ts';
import { loadRoofs } from '../../geometry/buildings/roofs/index.ts';
import { lonLatBox } from '../../geometry/buildings/premium-merge.ts';
import { pointInRing } from '../../geometry/ring.ts';
import { OSM_ATTRIBUTION } from '../../sources/attributions.ts';
import type { PremiumDataset } from '../../sources/premium/store.ts';
import { planOf, type FeatureFamily, type TileContext } from '../family.ts';
import { encodeMeshes } from '../encode-meshes.ts';
import { cropSolids } from '../../geometry/crop/crop-solids.ts';
import { premiumAttribution, premiumPlan, uncutSurfaces, type PremiumPlan } from './premium-plan.ts';
import { memberPolygons, tilePremium, withPolygons } from './premium-tile.ts';

/**
 * Buildings (Simple 3D Buildings; geometry/buildings has the tag parsers and roof builders), and
 * premium buildings where the request may use a premium dataset that covers the tile
 * (premium-tile.ts; they replace the OSM buildings under them, geometry/buildings/premium-merge.ts).
 * Groups (outline + parts, decided at import) are listed by their extent without reading any
 * member; a group whose stored interior point lies in the polygon is owned by the tile holding
 * that point, so every other tile skips it unread. Only groups this tile owns — and the few whose
 * interior point lies outside the polygon, whose anchor needs their geometry — are read, decoded
 * and built.
 */
export const buildingsFamily: FeatureFamily<BuildingsPlan> = {
  name: 'buildings',
  group: 'buildings',
  plan: (req, sources) => ({
    defaultLevels: req.settings.defaultLevels,
    defaultLevelHeight: req.settings.defaultLevelHeight,
    defaultRoofType: req.settings.defaultRoofType,
    ...premiumPlan(req, sources),
  }),
  async build(tile, out) {
    await loadRoofs();
    let t = performance.now();
    const { meshes: built, premium } = tileBuildingSet(tile);
    out.timings.build = (out.timings.build ?? 0) + performance.now() - t;
    t = performance.now();
    const buildings = tile.crop ? uncutSurfaces(cropSolids(built, tile.crop)) : built; // cropScene: cut and capped
    if (tile.crop) out.timings.crop = (out.timings.crop ?? 0) + performance.now() - t;
    t = performance.now();
    out.groups.buildings = encodeMeshes(tile, out, buildings, true);
    out.timings.encode = (out.timings.encode ?? 0) + performance.now() - t;
    out.attributions.push(OSM_ATTRIBUTION);
    if (premium.length > 0) {
      out.attributions.push(...premium.map(premiumAttribution));
      out.premiumDatasets = premium.map((d) => d.id);
    }
  },
};

/** The request's settings for buildings without height or roof data, and the premium datasets it may use. */
export interface BuildingsPlan extends PremiumPlan {
  defaultLevels: number;
  defaultLevelHeight: number;
  defaultRoofType: string;
}

/** The buildings one tile builds, in the local frame. */
export function tileBuildings(tile: TileContext): BuildingMesh[] {
  return tileBuildingSet(tile).meshes;
}

/** The buildings one tile builds, in the local frame, and the premium datasets that gave any of them. */
export function tileBuildingSet(tile: TileContext): { meshes: BuildingMesh[]; premium: PremiumDataset[] } {
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
  const extent = members.size > 0 ? lonLatBox([...members.values()].flatMap(memberPolygons)) : null;
  const premium = tilePremium(tile, plan.premiumStore ?? null, plan.premiumDatasets ?? [], extent);
  const out: BuildingMesh[] = [];
  for (const g of wanted) {
    const all = members.get(g.gid) ?? [];
    const decision = premium && all.length > 0 ? premium.decide(g.gid, all, g.rep) : null;
    if (decision?.action === 'replace') continue;
    const kept = decision?.action === 'cut' ? all.map((m, i) => withPolygons(m, decision.members[i])).filter((m, i) => i === 0 || m.polygons!.length > 0) : all;
    const [principal, ...parts] = kept;
    if (principal) for (const b of buildBuildingGroup({ principal, parts, rep: g.rep }, ctx)) out.push(b);
  }
  if (!premium) return { meshes: out, premium: [] };
  const built = premium.build();
  return { meshes: [...out, ...built.meshes], premium: built.used };
}
