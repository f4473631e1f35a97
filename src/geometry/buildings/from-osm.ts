import type { OsmFeature } from '../../sources/osm/types.ts';
import type { LocalFrame } from '../../frame/local-frame.ts';
import { projectFlat } from '../../frame/local-frame.ts';
import type { Footprint, IndexedMesh, Ring } from '../types.ts';
import type { RoofShape } from './build-part.ts';
import { buildBuildingPart } from './build-part.ts';
import { validFootprints } from '../footprint-repair.ts';
import { featureAnchor } from '../../plan/tiling.ts';
import { pointInRing } from '../ring.ts';
import { footprintGroundRange, type GroundSampler } from '../terrain/ground-sampler.ts';
import { assignPartsToOutlines, footprintContains, interiorPoint, outlineRemainder } from './parts.ts';
import { buildingSpecFromTags, type BuildingSpec } from './building-spec.ts';

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
  /** Valid footprints in local metres (a multipolygon may give several). */
  footprints: Footprint[];
  /** Raw local rings of each polygon, for the anchor rule. */
  polygons: Ring[][];
}

/** `building:part=*` (other than `no`) marks a part, whatever layer the store filed it under. */
export function isBuildingPart(tags: Record<string, string>): boolean {
  const part = tags['building:part'];
  return part !== undefined && part !== 'no';
}

/** Ids of the `type=building` relations that list the feature with this role. */
function relationsWithRole(feature: OsmFeature, role: 'outline' | 'part'): string[] {
  return (feature.buildingRelation ?? []).filter((m) => m.role === role).map((m) => m.id);
}

/**
 * Buildings from OSM (Simple 3D Buildings): every outline this tile owns (its anchor rule, see
 * plan/tiling.ts) becomes its parts plus whatever area the parts leave uncovered; parts without
 * an outline stand alone. A part listed in a `type=building` relation belongs to that relation's
 * outline whatever the geometry; other parts to the smallest outline around them. `features` must
 * hold every outline and part around the owned ones and every member of their relations (the
 * caller widens its query), so that all tiles assign parts to outlines the same way.
 */
export function buildBuildings(features: readonly OsmFeature[], ctx: BuildingContext): BuildingMesh[] {
  const outlines: Prepared[] = [], parts: Prepared[] = [];
  const seen = new Set<string>();
  for (const feature of features) {
    if (feature.kind !== 'area' || !feature.polygons || seen.has(feature.id)) continue;
    seen.add(feature.id);
    const polygons = feature.polygons.map((rings) => rings.map((r) => projectFlat(ctx.frame, r)));
    const footprints = polygons.flatMap((rings) => validFootprints({ outer: rings[0], holes: rings.slice(1) }));
    if (footprints.length === 0) continue;
    (isBuildingPart(feature.tags) ? parts : outlines).push({ feature, footprints, polygons });
  }
  const owner = assignPartsToOutlines(outlines.map((o) => o.footprints), parts.map((p) => p.footprints), {
    outlines: outlines.map((o) => relationsWithRole(o.feature, 'outline')),
    parts: parts.map((p) => relationsWithRole(p.feature, 'part')),
  });
  const partsOf = outlines.map(() => [] as Prepared[]);
  owner.forEach((o, p) => { if (o >= 0) partsOf[o].push(parts[p]); });

  const out: BuildingMesh[] = [];
  outlines.forEach((outline, o) => {
    const anchor = firstAnchor(outline.polygons, ctx.polygon);
    if (!anchor || !ctx.owns(anchor)) return;
    const boundary = outline.polygons.some((rings) => crossesBoundary(rings[0], ctx.polygon));
    const own = partsOf[o];
    const ground = groundZ([outline, ...own], ctx);
    const outlineSpec = buildingSpecFromTags(outline.feature.tags, ctx, outline.footprints[0]);
    if (own.length === 0) {
      for (const fp of outline.footprints) out.push(buildOne(fp, outlineSpec, outline.feature, null, ground, boundary));
      return;
    }
    const specs = own.map((p) => inheritFrom(buildingSpecFromTags(p.feature.tags, ctx, p.footprints[0]), outlineSpec));
    own.forEach((p, k) => {
      const covered = isCoveredByAnotherPart(p, specs[k], own, specs);
      const spec = covered && !specs[k].roofTagged ? { ...specs[k], height: specs[k].wallHeight, roof: { shape: 'flat' as const, height: 0 } } : specs[k];
      for (const fp of p.footprints) out.push(buildOne(fp, spec, p.feature, outline.feature, ground, boundary));
    });
    // The outline stands only where its parts leave area uncovered (never through its parts).
    const rest = outlineRemainder(outline.footprints, own.flatMap((p) => p.footprints));
    for (const fp of rest) out.push(buildOne(fp, outlineSpec, outline.feature, null, ground, boundary, true));
  });
  parts.forEach((part, p) => {
    if (owner[p] >= 0) return;
    const anchor = firstAnchor(part.polygons, ctx.polygon);
    if (!anchor || !ctx.owns(anchor)) return;
    const boundary = part.polygons.some((rings) => crossesBoundary(rings[0], ctx.polygon));
    const spec = buildingSpecFromTags(part.feature.tags, ctx, part.footprints[0]);
    for (const fp of part.footprints) out.push(buildOne(fp, spec, part.feature, null, groundZ([part], ctx), boundary));
  });
  return out;
}

/** A part without any height data of its own takes the outline's heights (its roof stays its own). */
function inheritFrom(part: BuildingSpec, outline: BuildingSpec): BuildingSpec {
  if (part.heightSource !== 'default' || outline.heightSource === 'default') return part;
  return { ...part, height: outline.height, wallHeight: Math.max(part.minHeight, outline.height - part.roof.height), levels: outline.levels, heightSource: `outline ${outline.heightSource}` };
}

/** Another part sits on this one's roof: then an untagged roof stays flat instead of poking into it. */
function isCoveredByAnotherPart(part: Prepared, spec: BuildingSpec, all: Prepared[], specs: BuildingSpec[]): boolean {
  const [x, y] = interiorPoint(part.footprints[0]);
  return all.some((other, k) => other !== part && specs[k].minHeight >= spec.wallHeight - 0.01 &&
    (other.footprints.some((f) => footprintContains(f, x, y)) || part.footprints.some((f) => footprintContains(f, ...interiorPoint(other.footprints[0])))));
}

/** OSM heights count from the lowest ground the building touches: its base goes there. */
function groundZ(items: Prepared[], ctx: BuildingContext): number {
  if (!ctx.ground) return 0;
  let min = Infinity;
  for (const item of items) for (const f of item.footprints) min = Math.min(min, footprintGroundRange(ctx.ground, f.outer).min);
  return Number.isFinite(min) ? min : 0;
}

function buildOne(footprint: Footprint, spec: BuildingSpec, feature: OsmFeature, parent: OsmFeature | null, ground: number, intersectsBoundary: boolean, remainder = false): BuildingMesh {
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
