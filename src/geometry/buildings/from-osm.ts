import type { OsmFeature } from '../../osm-model/feature.ts';
import { projectFlat, type LocalFrame } from '../../frame/local-frame.ts';
import { mapPositionsInPlace, mapRing } from '../../frame/stable-frame.ts';
import type { IndexedMesh, Ring } from '../types.ts';
import type { RoofShape } from './roofs/types.ts';
import { buildBuildingPart } from './build-part.ts';
import { featureAnchor } from '../anchor.ts';
import { pointInRing } from '../ring.ts';
import type { GroundSampler } from '../terrain/ground-sampler.ts';
import { undergroundReason } from './tags/index.ts';
import { groupBuildings, isBuildingPart } from './building-groups.ts';
import { buildingsOnUnderground, groupFrames, layoutGroup, type BuildingGroupInput, type BuildingPiece } from './group-layout.ts';
import { buriedNote, groundLevels, wallSpan, type GroundLevels } from './on-ground.ts';

export { isBuildingPart };

/** What the building builder needs to know about the request. */
export interface BuildingContext {
  frame: LocalFrame;
  /** The request polygon in local metres (closed ring without the closing duplicate). */
  polygon: Ring;
  defaultLevels: number;
  defaultLevelHeight: number;
  defaultRoofType: RoofShape;
  /** Whether this tile builds the feature anchored at the given local point (see plan/tiling.ts). */
  owns(anchor: [number, number]): boolean;
  /** Ground height at a local point, when buildings stand on real terrain; else the ground is z = 0. */
  ground?: GroundSampler;
}

export interface BuildingMesh {
  mesh: IndexedMesh;
  descriptor: Record<string, unknown>;
}

export type { BuildingGroupInput };

/**
 * Buildings from a list of features (tests, fixtures): grouped exactly as the store groups them
 * at import (`groupFeatures`), then built group by group (`buildBuildingGroup`).
 */
export function buildBuildings(features: readonly OsmFeature[], ctx: BuildingContext): BuildingMesh[] {
  return groupFeatures(features).flatMap((g) => buildBuildingGroup(g, ctx));
}

/** The buildings among `features` (areas, each once) grouped as the store groups them at import (building-groups.ts). */
export function groupFeatures(features: readonly OsmFeature[]): BuildingGroupInput[] {
  const areas: OsmFeature[] = [];
  const seen = new Set<string>();
  for (const f of features) {
    if (f.kind !== 'area' || !f.polygons || seen.has(f.id)) continue;
    seen.add(f.id);
    areas.push(f);
  }
  const groups = groupBuildings(
    areas.map((f) => ({
      polygons: f.polygons!,
      isPart: isBuildingPart(f.tags),
      relations: f.buildingRelation ?? [],
    })),
  );
  return groups.map((g) => ({ principal: areas[g.principal], parts: g.parts.map((p) => areas[p]), rep: g.rep }));
}

/**
 * One building (Simple 3D Buildings) if this tile builds it: its anchor is the stored interior
 * point when that lies in the polygon, else the principal's first point in the polygon (see
 * geometry/anchor.ts); nothing when the building does not meet the polygon or another tile owns it.
 * An outline with parts becomes its parts plus whatever area they leave uncovered (group-layout.ts);
 * on sloping ground it stands as on-ground.ts says.
 *
 * The meshes are built in the building's stable frame (src/frame/stable-frame.ts) and moved into
 * the request frame at the end, so the same building comes out the same in every request.
 */
export function buildBuildingGroup(group: BuildingGroupInput, ctx: BuildingContext): BuildingMesh[] {
  const [repLon, repLat] = group.rep;
  const repLocal = ctx.frame.toLocal(repLon, repLat);
  // Underground structures are not above-ground blocks: left out (docs/buildings.md), with their own
  // parts; a building standing on one (its own building=* beside building:part) stands on its own.
  if (undergroundReason(group.principal.tags)) return buildingsOnUnderground(group).flatMap((g) => buildBuildingGroup(g, ctx));
  if (group.principal.kind !== 'area' || !group.principal.polygons) return [];
  const frames = groupFrames(group.rep, ctx.frame);
  const requestRings = () => group.principal.polygons!.map((rings) => rings.map((r) => mapRing(frames.toRequest, projectFlat(frames.stable, r))));
  let outers: Ring[] | null = null;
  let anchor: [number, number] | null = repLocal;
  if (!pointInRing(repLocal[0], repLocal[1], ctx.polygon)) {
    const polygons = requestRings();
    outers = polygons.map((rings) => rings[0]);
    anchor = firstAnchor(polygons, ctx.polygon);
  }
  if (!anchor || !ctx.owns(anchor)) return [];
  const layout = layoutGroup(group, ctx, frames);
  if (!layout) return [];
  outers ??= requestRings().map((rings) => rings[0]);
  const boundary = outers.some((outer) => crossesBoundary(outer, ctx.polygon));
  const levels = groundLevels(layout, ctx.ground);
  return layout.pieces.map((piece) => {
    const { built, top } = buildOne(piece, levels, boundary);
    mapPositionsInPlace(layout.toRequest, built.mesh.positions);
    const note = buriedNote(top, mapRing(layout.toRequest, piece.footprint.outer), levels, ctx.ground);
    if (note) built.descriptor.dataNotes = [...((built.descriptor.dataNotes as string[] | undefined) ?? []), note];
    return built;
  });
}

/** One piece's solid and descriptor, in the building's stable frame; `top` is its highest point. */
function buildOne(piece: BuildingPiece, levels: GroundLevels, intersectsBoundary: boolean): { built: BuildingMesh; top: number } {
  const { footprint, spec, feature, parent, remainder } = piece;
  const { baseZ, wallTopZ } = wallSpan(spec, levels);
  let built = buildBuildingPart(footprint, { baseZ, wallTopZ, roof: spec.roof });
  if (built.roofShape === 'flat' && spec.roof.shape !== 'flat' && spec.heightSource === 'height') {
    // A tagged height is the building's real top: a roof that could not be built gives its height back to the walls.
    const flat = buildBuildingPart(footprint, { baseZ, wallTopZ: levels.reference + spec.height, roof: { shape: 'flat', height: 0 } });
    built = { ...flat, roofFallback: built.roofFallback };
  }
  const top = maxZ(built.mesh.positions);
  const wallTop = built.roofShape === 'flat' ? top : wallTopZ;
  // Heights in the descriptor are those of the built solid, above the floor of the building (groundElevation).
  const ground = levels.lowest;
  const tags = feature.tags;
  const descriptor: Record<string, unknown> = {
    type: 'building',
    id: feature.id,
    ...(parent ? { parentId: parent.id } : {}),
    ...(remainder ? { outlineRemainder: true } : {}),
    buildingName: tags.name ?? parent?.tags.name ?? null,
    buildingType: tags.building ?? parent?.tags.building ?? 'yes',
    datasetName: 'OSM',
    dataTier: 'global',
    heightSource: spec.heightSource,
    buildingLevels: spec.levels,
    buildingHeight: round3(top - ground),
    buildingMinHeight: round3(baseZ - ground),
    roofType: built.roofShape,
    roofHeight: round3(top - wallTop),
    ...(built.roofFallback ? { roofFallback: built.roofFallback } : {}),
    ...spec.appearance,
    hasDefaultHeight: spec.heightSource === 'default',
    hasDefaultRoof: !spec.roofTagged,
    ...(spec.notes.length ? { dataNotes: spec.notes } : {}),
    intersectsBoundary,
    ...(ground !== 0 ? { groundElevation: round3(ground) } : {}),
    ...(levels.reference !== ground ? { heightReferenceElevation: round3(levels.reference) } : {}),
  };
  return { built: { mesh: built.mesh, descriptor }, top };
}

function firstAnchor(polygons: Ring[][], polygon: Ring): [number, number] | null {
  for (const rings of polygons) {
    const a = featureAnchor(rings, polygon);
    if (a) return a;
  }
  return null;
}

function crossesBoundary(outer: Ring, polygon: Ring): boolean {
  for (let k = 0; k < outer.length; k += 2) if (!pointInRing(outer[k], outer[k + 1], polygon)) return true;
  for (let k = 0; k < polygon.length; k += 2) if (pointInRing(polygon[k], polygon[k + 1], outer)) return true;
  return false;
}

function maxZ(positions: Float64Array): number {
  let z = -Infinity;
  for (let i = 2; i < positions.length; i += 3) if (positions[i] > z) z = positions[i];
  return z;
}

function round3(v: number): number {
  return Math.round(v * 1000) / 1000;
}
