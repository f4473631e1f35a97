import type { OsmFeature } from '../../sources/osm/types.ts';
import type { LocalFrame } from '../../frame/local-frame.ts';
import { projectFlat } from '../../frame/local-frame.ts';
import type { IndexedMesh, Ring } from '../types.ts';
import type { RoofShape } from './build-part.ts';
import { buildBuildingPart } from './build-part.ts';
import { validFootprints } from '../footprint-repair.ts';
import { featureAnchor } from '../../plan/tiling.ts';
import { pointInRing } from '../ring.ts';
import { footprintGroundRange, type GroundSampler } from '../terrain/ground-sampler.ts';

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

/** Parses an OSM length such as `12`, `12.5 m`, `12,5`; null for anything else or nonsense. */
function parseMetres(value: string | undefined): number | null {
  if (value === undefined) return null;
  const m = /^\s*(-?\d+(?:[.,]\d+)?)\s*(m|meters?|metres?)?\s*$/i.exec(value);
  if (!m) return null;
  const v = Number(m[1].replace(',', '.'));
  return Number.isFinite(v) && v >= 0 && v < 1000 ? v : null;
}

function parseCount(value: string | undefined): number | null {
  if (value === undefined) return null;
  const v = Number(value.trim().replace(',', '.'));
  return Number.isFinite(v) && v >= 0 && v < 300 ? v : null;
}

/**
 * LoD1 buildings from OSM `building=*` features: one closed mesh per polygon of each feature this
 * tile owns and that meets the request polygon.
 */
export function buildBuildings(features: readonly OsmFeature[], ctx: BuildingContext): BuildingMesh[] {
  const out: BuildingMesh[] = [];
  for (const feature of features) {
    if (feature.kind !== 'area' || !feature.polygons) continue;
    const polygons = feature.polygons.map((rings) => rings.map((r) => projectFlat(ctx.frame, r)));
    const anchor = firstAnchor(polygons, ctx.polygon);
    if (!anchor || !ctx.owns(anchor)) continue;
    const heights = buildingHeights(feature.tags, ctx);
    const intersectsBoundary = polygons.some((rings) => crossesBoundary(rings[0], ctx.polygon));
    const footprints = polygons.flatMap((rings) => validFootprints({ outer: rings[0], holes: rings.slice(1) }));
    // OSM heights count from the lowest ground the building touches: the whole feature stands there,
    // its walls reaching down to that point, so nothing floats (uphill it is embedded in the slope).
    const groundZ = ctx.ground && footprints.length > 0
      ? Math.min(...footprints.map((f) => footprintGroundRange(ctx.ground!, f.outer).min))
      : 0;
    for (const footprint of footprints) {
      const built = buildBuildingPart(footprint, {
        baseZ: groundZ + heights.minHeight,
        wallTopZ: groundZ + heights.height,
        roof: { shape: 'flat', height: 0 },
      });
      out.push({
        mesh: built.mesh,
        descriptor: {
          type: 'building',
          id: feature.id,
          buildingName: feature.tags.name ?? null,
          buildingType: feature.tags.building ?? 'yes',
          datasetName: 'OSM',
          dataTier: 'global',
          heightSource: heights.source,
          buildingLevels: heights.levels,
          buildingHeight: round3(heights.height),
          buildingMinHeight: round3(heights.minHeight),
          roofType: built.roofShape,
          roofHeight: 0,
          hasDefaultHeight: heights.source === 'default',
          hasDefaultRoof: feature.tags['roof:shape'] === undefined,
          intersectsBoundary,
          ...(ctx.ground ? { groundElevation: round3(groundZ) } : {}),
        },
      });
    }
  }
  return out;
}

interface Heights {
  height: number;
  minHeight: number;
  levels: number | null;
  source: 'height' | 'levels' | 'default';
}

function buildingHeights(tags: Record<string, string>, ctx: BuildingContext): Heights {
  const levels = parseCount(tags['building:levels']);
  const minLevel = parseCount(tags['building:min_level']);
  let minHeight = parseMetres(tags.min_height) ?? (minLevel !== null ? minLevel * ctx.defaultLevelHeight : 0);
  const tagged = parseMetres(tags.height);
  let height: number;
  let source: Heights['source'];
  if (tagged !== null && tagged > 0) { height = tagged; source = 'height'; }
  else if (levels !== null && levels > 0) { height = levels * ctx.defaultLevelHeight; source = 'levels'; }
  else { height = ctx.defaultLevels * ctx.defaultLevelHeight; source = 'default'; }
  if (minHeight >= height) minHeight = 0;
  return { height, minHeight, levels, source };
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

function round3(v: number): number {
  return Math.round(v * 1000) / 1000;
}
