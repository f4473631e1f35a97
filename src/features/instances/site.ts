import { projectFlat, type LocalFrame } from '../../frame/local-frame.ts';
import { CELL_DEGREES, stableFrameAt } from '../../frame/stable-frame.ts';
import { validFootprints } from '../../geometry/planar/footprint-repair.ts';
import { undergroundReason } from '../../geometry/buildings/tags/index.ts';
import { classifySurfaceArea, notGroundReason } from '../../geometry/surfaces/classify/index.ts';
import { URBAN_LANDUSE_PRIORITY } from '../../geometry/surfaces/priority.ts';
import { CARRIAGEWAY_CLASSES, PATH_WIDTHS, carriagewayWidth, pathWidth } from '../../geometry/surfaces/roads/widths.ts';
import { PointBlocker, type Corridor } from '../../geometry/trees/point-index.ts';
import type { Footprint } from '../../geometry/types.ts';
import type { OsmFeature } from '../../osm-model/feature.ts';

/** Ground kinds nothing grows on: roads, pavements, pitches, water, building sites. */
const HARD_KINDS = new Set(['asphalt', 'roadwayIntersection', 'roadwayArea', 'pavement', 'pitch', 'helipad', 'water', 'buildingConstruction']);

/** Width added to a road with sidewalks (each side, metres) and kept clear beside every road. */
const SIDEWALK_METRES = 2;
const ROAD_CLEARANCE = 0.5;

/**
 * Where plants may stand, in the fixed frame of one 0.05° cell of the globe (stable-frame.ts), so
 * every tile and request decides alike: `buildings` blocks the footprint of every building that
 * stands above ground (surveyed trees inside one are roof gardens we cannot place); `fill`
 * additionally blocks roads with their sidewalks, hard ground and water (docs/trees.md).
 */
export interface Site {
  frame: LocalFrame;
  /** Salt of this cell's fill grid. */
  salt: number;
  /** Indices of the 0.05° cell (lon, lat): with a plant's grid cell, its stable id (forest.ts). */
  cell: [number, number];
  /** Cell bounds in lon/lat. */
  lon0: number;
  lat0: number;
  buildings(): PointBlocker;
  /** Built lazily: only tiles with fill areas need roads and hard ground. */
  fill(): PointBlocker;
}

export function siteKey(lon: number, lat: number): string {
  return `${Math.floor(lon / CELL_DEGREES)},${Math.floor(lat / CELL_DEGREES)}`;
}

/**
 * `features`: what the tile read (roads, areas); `buildingFeatures`: its buildings, read only when a
 * plant needs them (most tiles of a dense city have none, and buildings are the bulk of the store).
 */
export function createSite(
  lon: number,
  lat: number,
  features: readonly OsmFeature[],
  buildingFeatures: () => readonly OsmFeature[],
  extraDiscs: () => number[],
): Site {
  const i = Math.floor(lon / CELL_DEGREES),
    j = Math.floor(lat / CELL_DEGREES);
  const frame = stableFrameAt(lon, lat);
  let buildings: Footprint[] | null = null,
    blocker: PointBlocker | null = null,
    fill: PointBlocker | null = null;
  const footprints = () => (buildings ??= buildingFootprints(buildingFeatures(), frame));
  return {
    frame,
    salt: (i * 73856093) ^ (j * 19349663),
    cell: [i, j],
    lon0: i * CELL_DEGREES,
    lat0: j * CELL_DEGREES,
    buildings() {
      blocker ??= new PointBlocker({ footprints: footprints(), corridors: [], discs: [] });
      return blocker;
    },
    fill() {
      fill ??= new PointBlocker({
        footprints: [...footprints(), ...hardGround(features, frame)],
        corridors: roadCorridors(features, frame),
        discs: extraDiscs(),
      });
      return fill;
    },
  };
}

function buildingFootprints(features: readonly OsmFeature[], frame: LocalFrame): Footprint[] {
  const out: Footprint[] = [];
  for (const f of features) {
    if ((f.layer !== 'building' && f.layer !== 'building_part') || f.kind !== 'area' || !f.polygons) continue;
    if (undergroundReason(f.tags)) continue;
    out.push(...projectPolygons(f.polygons, frame));
  }
  return out;
}

function hardGround(features: readonly OsmFeature[], frame: LocalFrame): Footprint[] {
  const out: Footprint[] = [];
  for (const f of features) {
    if (f.kind !== 'area' || !f.polygons || f.layer === 'building' || f.layer === 'building_part') continue;
    const cls = classifySurfaceArea(f.tags);
    // urban land-use envelopes (a residential district) are not hard where a wood lies in them
    if (!cls || !HARD_KINDS.has(cls.kind) || cls.priority <= URBAN_LANDUSE_PRIORITY || notGroundReason(f.tags)) continue;
    out.push(...projectPolygons(f.polygons, frame));
  }
  return out;
}

function roadCorridors(features: readonly OsmFeature[], frame: LocalFrame): Corridor[] {
  const out: Corridor[] = [];
  for (const f of features) {
    if (f.layer !== 'highway' || f.kind !== 'line' || !f.line) continue;
    const t = f.tags;
    if ((t.tunnel && t.tunnel !== 'no') || t.covered === 'yes' || (t.indoor && t.indoor !== 'no')) continue;
    let width: number;
    if (t.highway in CARRIAGEWAY_CLASSES) {
      width = carriagewayWidth(t.highway, t).width;
      const sw = t.sidewalk ?? t['sidewalk:both'];
      if (sw === 'both') width += 2 * SIDEWALK_METRES;
      else if (sw === 'left' || sw === 'right' || sw === 'yes') width += SIDEWALK_METRES;
    } else if (t.highway in PATH_WIDTHS) {
      width = pathWidth(t.highway, t).width;
    } else continue;
    out.push({ points: projectFlat(frame, f.line), halfWidth: width / 2 + ROAD_CLEARANCE });
  }
  return out;
}

function projectPolygons(polygons: number[][][], frame: LocalFrame): Footprint[] {
  const out: Footprint[] = [];
  for (const rings of polygons) {
    if (rings.length === 0) continue;
    out.push(...validFootprints({ outer: projectFlat(frame, rings[0]), holes: rings.slice(1).map((r) => projectFlat(frame, r)) }));
  }
  return out;
}
