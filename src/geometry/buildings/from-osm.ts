import type { OsmFeature } from '../../osm-model/feature.ts';
import { projectFlat, type LocalFrame } from '../../frame/local-frame.ts';
import { affineBetween, mapPositionsInPlace, mapRing, stableFrameAt, type Affine2 } from '../../frame/stable-frame.ts';
import type { Footprint, IndexedMesh, Ring } from '../types.ts';
import type { RoofShape } from './roofs/types.ts';
import { buildBuildingPart } from './build-part.ts';
import { validFootprints } from '../planar/footprint-repair.ts';
import { featureAnchor } from '../anchor.ts';
import { pointInRing } from '../ring.ts';
import { footprintGroundRange, type GroundSampler } from '../terrain/ground-sampler.ts';
import { footprintContains, interiorPoint, outlineRemainder } from './parts.ts';
import { buildingSpecFromTags, type BuildingSpec } from './building-spec.ts';
import { undergroundReason } from './tags/index.ts';
import { groupBuildings, isBuildingPart } from './building-groups.ts';

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

interface Prepared {
  feature: OsmFeature;
  /** Valid footprints in the building's stable frame (a multipolygon may give several). */
  footprints: Footprint[];
}

/** One building as the store groups it (see building-groups.ts): the outline or lone part, then its parts. */
export interface BuildingGroupInput {
  principal: OsmFeature;
  parts: readonly OsmFeature[];
  /** A point strictly inside the principal's footprint, [lon, lat], fixed at import. */
  rep: readonly [number, number];
}

/**
 * Buildings from a list of features (tests, fixtures): grouped exactly as the store groups them
 * at import, then built group by group (`buildBuildingGroup`).
 */
export function buildBuildings(features: readonly OsmFeature[], ctx: BuildingContext): BuildingMesh[] {
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
  return groups.flatMap((g) => buildBuildingGroup({ principal: areas[g.principal], parts: g.parts.map((p) => areas[p]), rep: g.rep }, ctx));
}

/**
 * One building (Simple 3D Buildings) if this tile builds it: its anchor is the stored interior
 * point when that lies in the polygon, else the principal's first point in the polygon (see
 * geometry/anchor.ts); nothing when the building does not meet the polygon or another tile owns it.
 * An outline with parts becomes its parts plus whatever area they leave uncovered.
 *
 * The meshes are built in the building's stable frame (src/frame/stable-frame.ts) and moved into
 * the request frame at the end, so the same building comes out the same in every request.
 */
export function buildBuildingGroup(group: BuildingGroupInput, ctx: BuildingContext): BuildingMesh[] {
  const [repLon, repLat] = group.rep;
  const repLocal = ctx.frame.toLocal(repLon, repLat);
  const stable = stableFrameAt(repLon, repLat);
  const toRequest = affineBetween(stable, ctx.frame, repLon, repLat);
  // Underground structures are not above-ground blocks: left out (docs/buildings.md), with their own
  // parts; a building standing on one (its own building=* beside building:part) stands on its own.
  if (undergroundReason(group.principal.tags)) return buildingsOnUnderground(group, ctx);
  const principal = prepare(group.principal, stable);
  if (!principal) return [];
  const requestRings = () => group.principal.polygons!.map((rings) => rings.map((r) => mapRing(toRequest, projectFlat(stable, r))));
  let outers: Ring[] | null = null;
  let anchor: [number, number] | null = repLocal;
  if (!pointInRing(repLocal[0], repLocal[1], ctx.polygon)) {
    const polygons = requestRings();
    outers = polygons.map((rings) => rings[0]);
    anchor = firstAnchor(polygons, ctx.polygon);
  }
  if (!anchor || !ctx.owns(anchor)) return [];
  outers ??= requestRings().map((rings) => rings[0]);
  const boundary = outers.some((outer) => crossesBoundary(outer, ctx.polygon));
  // An underground part is neither built nor cut out of the outline standing above it.
  const own = group.parts
    .filter((p) => !undergroundReason(p.tags))
    .map((p) => prepare(p, stable))
    .filter((p): p is Prepared => p !== null);
  const ground = groundZ([principal, ...own], toRequest, ctx);
  const place = (b: BuildingMesh) => {
    mapPositionsInPlace(toRequest, b.mesh.positions);
    return b;
  };
  const out: BuildingMesh[] = [];
  const principalSpec = buildingSpecFromTags(principal.feature.tags, ctx, principal.footprints[0]);
  if (own.length === 0) {
    for (const fp of principal.footprints) out.push(place(buildOne(fp, principalSpec, principal.feature, null, ground, boundary)));
    return out;
  }
  const specs = own.map((p) => inheritFrom(buildingSpecFromTags(p.feature.tags, ctx, p.footprints[0]), principalSpec));
  own.forEach((p, k) => {
    const covered = isCoveredByAnotherPart(p, specs[k], own, specs);
    const spec = covered && !specs[k].roofTagged ? { ...specs[k], height: specs[k].wallHeight, roof: { shape: 'flat' as const, height: 0 } } : specs[k];
    for (const fp of p.footprints) out.push(place(buildOne(fp, spec, p.feature, principal.feature, ground, boundary)));
  });
  // The outline stands only where its parts leave area uncovered (never through its parts).
  const rest = outlineRemainder(
    principal.footprints,
    own.flatMap((p) => p.footprints),
  );
  for (const fp of rest) out.push(place(buildOne(fp, principalSpec, principal.feature, null, ground, boundary, true)));
  return out;
}

/**
 * The members of an underground building's group that are buildings in their own right — an
 * outline tagged `building=*` as well as `building:part=*`, not underground itself (the towers
 * over a station hall) — each built as a building alone. They keep the group's interior point, so
 * the tile that builds the group builds them, once.
 */
function buildingsOnUnderground(group: BuildingGroupInput, ctx: BuildingContext): BuildingMesh[] {
  const out: BuildingMesh[] = [];
  for (const part of group.parts) {
    const building = part.tags.building;
    if (building === undefined || building === 'no' || undergroundReason(part.tags)) continue;
    out.push(...buildBuildingGroup({ principal: part, parts: [], rep: group.rep }, ctx));
  }
  return out;
}

function prepare(feature: OsmFeature, frame: LocalFrame): Prepared | null {
  if (feature.kind !== 'area' || !feature.polygons) return null;
  const footprints = feature.polygons.flatMap((rings) =>
    validFootprints({ outer: projectFlat(frame, rings[0]), holes: rings.slice(1).map((r) => projectFlat(frame, r)) }),
  );
  return footprints.length > 0 ? { feature, footprints } : null;
}

/**
 * A part without any height data of its own takes the outline's heights (its roof stays its own),
 * unless the outline's top is at or below the part's own bottom (it would flatten the part to nothing).
 */
function inheritFrom(part: BuildingSpec, outline: BuildingSpec): BuildingSpec {
  if (part.heightSource !== 'default' || outline.heightSource === 'default' || outline.height <= part.minHeight) return part;
  return {
    ...part,
    height: outline.height,
    wallHeight: Math.max(part.minHeight, outline.height - part.roof.height),
    levels: outline.levels,
    heightSource: `outline ${outline.heightSource}`,
  };
}

/** Another part sits on this one's roof: then an untagged roof stays flat instead of poking into it. */
function isCoveredByAnotherPart(part: Prepared, spec: BuildingSpec, all: Prepared[], specs: BuildingSpec[]): boolean {
  const [x, y] = interiorPoint(part.footprints[0]);
  return all.some(
    (other, k) =>
      other !== part &&
      specs[k].minHeight >= spec.wallHeight - 0.01 &&
      (other.footprints.some((f) => footprintContains(f, x, y)) || part.footprints.some((f) => footprintContains(f, ...interiorPoint(other.footprints[0])))),
  );
}

/** OSM heights count from the lowest ground the building touches: its base goes there. */
function groundZ(items: Prepared[], toRequest: Affine2, ctx: BuildingContext): number {
  if (!ctx.ground) return 0;
  let min = Infinity;
  for (const item of items) for (const f of item.footprints) min = Math.min(min, footprintGroundRange(ctx.ground, mapRing(toRequest, f.outer)).min);
  return Number.isFinite(min) ? min : 0;
}

function buildOne(
  footprint: Footprint,
  spec: BuildingSpec,
  feature: OsmFeature,
  parent: OsmFeature | null,
  ground: number,
  intersectsBoundary: boolean,
  remainder = false,
): BuildingMesh {
  let built = buildBuildingPart(footprint, {
    baseZ: ground + spec.minHeight,
    wallTopZ: ground + spec.wallHeight,
    roof: spec.roof,
  });
  if (built.roofShape === 'flat' && spec.roof.shape !== 'flat' && spec.heightSource === 'height') {
    // A tagged height is the building's real top: a roof that could not be built gives its height back to the walls.
    const flat = buildBuildingPart(footprint, { baseZ: ground + spec.minHeight, wallTopZ: ground + spec.height, roof: { shape: 'flat', height: 0 } });
    built = { ...flat, roofFallback: built.roofFallback };
  }
  const top = maxZ(built.mesh.positions) - ground;
  const tags = feature.tags;
  return {
    mesh: built.mesh,
    descriptor: {
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
      buildingHeight: round3(top),
      buildingMinHeight: round3(spec.minHeight),
      roofType: built.roofShape,
      roofHeight: built.roofShape === 'flat' ? 0 : round3(top - spec.wallHeight),
      ...(built.roofFallback ? { roofFallback: built.roofFallback } : {}),
      ...spec.appearance,
      hasDefaultHeight: spec.heightSource === 'default',
      hasDefaultRoof: !spec.roofTagged,
      ...(spec.notes.length ? { dataNotes: spec.notes } : {}),
      intersectsBoundary,
      ...(ground !== 0 ? { groundElevation: round3(ground) } : {}),
    },
  };
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
