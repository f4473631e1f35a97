import type { OsmFeature } from '../../osm-model/feature.ts';
import { projectFlat, type LocalFrame } from '../../frame/local-frame.ts';
import { affineBetween, mapRing, stableFrameAt, type Affine2 } from '../../frame/stable-frame.ts';
import type { Footprint } from '../types.ts';
import { validFootprints } from '../planar/footprint-repair.ts';
import { footprintContains, interiorPoint, outlineRemainder } from './parts.ts';
import { buildingSpecFromTags, type BuildingSpec, type SpecDefaults } from './building-spec.ts';
import { undergroundReason } from './tags/index.ts';

/**
 * What one building (an outline with its parts, or a lone building) is made of before any mesh
 * is built: the pieces that carry its volume — its parts, plus whatever area of the outline they
 * leave uncovered — each with its footprint and heights. The buildings family builds these pieces,
 * and the ground cuts out the ones that stand on it, so both always agree on what is there.
 */

/** One building as the store groups it (see building-groups.ts): the outline or lone part, then its parts. */
export interface BuildingGroupInput {
  principal: OsmFeature;
  parts: readonly OsmFeature[];
  /** A point strictly inside the principal's footprint, [lon, lat], fixed at import. */
  rep: readonly [number, number];
}

/** A feature's valid footprints in the building's stable frame (a multipolygon may give several). */
export interface Prepared {
  feature: OsmFeature;
  footprints: Footprint[];
}

/** One solid's worth of building: a footprint and the heights to build over it. */
export interface BuildingPiece {
  /** In the building's stable frame. */
  footprint: Footprint;
  spec: BuildingSpec;
  feature: OsmFeature;
  /** The outline a part belongs to (null for the outline itself and lone buildings). */
  parent: OsmFeature | null;
  /** The outline's area its parts leave uncovered. */
  remainder: boolean;
}

/** The building's stable frame (src/frame/stable-frame.ts) and the map from it into the request frame. */
export interface GroupFrames {
  stable: LocalFrame;
  toRequest: Affine2;
}

/** The frames of a building with the given interior point, for a request in `frame`. */
export function groupFrames(rep: readonly [number, number], frame: LocalFrame): GroupFrames {
  const stable = stableFrameAt(rep[0], rep[1]);
  return { stable, toRequest: affineBetween(stable, frame, rep[0], rep[1]) };
}

export interface GroupLayout extends GroupFrames {
  /** The outline (or lone building) and its parts above ground, for the ground levels under the whole building. */
  members: Prepared[];
  pieces: BuildingPiece[];
}

/**
 * The pieces of one building (Simple 3D Buildings): a lone building is itself; an outline with
 * parts is its parts (those without heights of their own taking the outline's) plus the outline's
 * remainder. Underground parts are neither built nor cut out of the outline. Null when the
 * principal has no usable footprint. The caller handles an underground principal.
 */
export function layoutGroup(group: BuildingGroupInput, defaults: SpecDefaults, frames: GroupFrames): GroupLayout | null {
  const { stable, toRequest } = frames;
  const principal = prepare(group.principal, stable);
  if (!principal) return null;
  const own = group.parts
    .filter((p) => !undergroundReason(p.tags))
    .map((p) => prepare(p, stable))
    .filter((p): p is Prepared => p !== null);
  const principalSpec = buildingSpecFromTags(principal.feature.tags, defaults, principal.footprints[0]);
  const pieces: BuildingPiece[] = [];
  const members = [principal, ...own];
  if (own.length === 0) {
    for (const footprint of principal.footprints) pieces.push({ footprint, spec: principalSpec, feature: principal.feature, parent: null, remainder: false });
    return { stable, toRequest, members, pieces };
  }
  const specs = own.map((p) => inheritFrom(buildingSpecFromTags(p.feature.tags, defaults, p.footprints[0]), principalSpec));
  own.forEach((p, k) => {
    const covered = isCoveredByAnotherPart(p, specs[k], own, specs);
    const spec = covered && !specs[k].roofTagged ? { ...specs[k], height: specs[k].wallHeight, roof: { shape: 'flat' as const, height: 0 } } : specs[k];
    for (const footprint of p.footprints) pieces.push({ footprint, spec, feature: p.feature, parent: principal.feature, remainder: false });
  });
  // The outline stands only where its parts leave area uncovered (never through its parts).
  const rest = outlineRemainder(
    principal.footprints,
    own.flatMap((p) => p.footprints),
  );
  for (const footprint of rest) pieces.push({ footprint, spec: principalSpec, feature: principal.feature, parent: null, remainder: true });
  return { stable, toRequest, members, pieces };
}

/**
 * The members of an underground building's group that are buildings in their own right — an
 * outline tagged `building=*` as well as `building:part=*`, not underground itself (the towers
 * over a station hall) — each a building alone. They keep the group's interior point, so the tile
 * that builds the group builds them, once.
 */
export function buildingsOnUnderground(group: BuildingGroupInput): BuildingGroupInput[] {
  const out: BuildingGroupInput[] = [];
  for (const part of group.parts) {
    const building = part.tags.building;
    if (building === undefined || building === 'no' || undergroundReason(part.tags)) continue;
    out.push({ principal: part, parts: [], rep: group.rep });
  }
  return out;
}

/** A piece of a building standing on the ground: its footprint in the request frame and its feature. */
export interface StandingPiece {
  footprint: Footprint;
  feature: OsmFeature;
}

/**
 * Where a building stands on the ground, whichever tile builds it: the footprints (request frame)
 * of the pieces it is built from whose walls start at the ground — no `min_height` or
 * `building:min_level` above 0 — and, for an underground building, those of the buildings standing
 * on it. The same pieces, specs and frames as the buildings family builds.
 */
export function standingPieces(group: BuildingGroupInput, defaults: SpecDefaults, frame: LocalFrame): StandingPiece[] {
  if (undergroundReason(group.principal.tags)) return buildingsOnUnderground(group).flatMap((g) => standingPieces(g, defaults, frame));
  const layout = layoutGroup(group, defaults, groupFrames(group.rep, frame));
  if (!layout) return [];
  return layout.pieces.filter((p) => p.spec.minHeight <= 0).map((p) => ({ footprint: footprintInRequest(p.footprint, layout.toRequest), feature: p.feature }));
}

/** A footprint moved from the building's stable frame into the request frame. */
export function footprintInRequest(footprint: Footprint, toRequest: Affine2): Footprint {
  return { outer: mapRing(toRequest, footprint.outer), holes: footprint.holes.map((h) => mapRing(toRequest, h)) };
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
