import { projectFlat } from '../../frame/local-frame.ts';
import { roadSurfaces, type RoadInput, type RoadSurfaces, type UnderLine } from '../../geometry/surfaces/roads/road-surfaces.ts';
import { JUNCTION_REACH } from '../../geometry/surfaces/roads/within.ts';
import type { LonLatBBox, OsmFeature } from '../../osm-model/feature.ts';
import type { GroundSquare } from './ground-square.ts';

/** Highway ways are read this far around the tile: every way whose junctions can reach into it (JUNCTION_REACH). */
export const ROAD_READ_METRES = JUNCTION_REACH;

/** Around the bridges' ways the store is read this far more, metres: the roads that end at them and what they cross. */
const BRIDGE_PAD_METRES = 30;
/** Bridge chains are followed at most this many reads (each grows the box to the bridges found). */
const BRIDGE_READS = 4;
/** …and no farther than a box this wide, degrees (~3 km): a viaduct longer than that is profiled in parts. */
const BRIDGE_MAX_SPAN_DEGREES = 0.03;

const isBridge = (f: OsmFeature) => f.tags.bridge !== undefined && f.tags.bridge !== 'no';
const isLine = (f: OsmFeature) => f.kind === 'line' && !!f.line;

/**
 * Road centerlines (highway lines) around the tile → carriageway, sidewalk and junction areas plus
 * centerlines, built only where they meet the tile (`within`): an avenue crossing a whole city was
 * otherwise built end to end by every tile it passes (half of the ground's time on a 3 km grid of
 * avenues). The ways stay whole for the graph, so trims, junction numbers and bridge decks are
 * those of the whole ways, the same in every tile. A bridge's deck depends on its whole chain of
 * bridge ways, the roads at its abutments and what it crosses (roads, railways, waterways), so
 * those are read around the bridges, following the chain until no new bridge way turns up.
 */
export function roadSurfacesForTile(features: readonly OsmFeature[], tile: GroundSquare): RoadSurfaces {
  const roads: RoadInput[] = [];
  const seen = new Set<string>();
  for (const f of features) {
    if (f.layer !== 'highway' || !isLine(f)) continue;
    seen.add(f.id);
    roads.push({ id: f.id, tags: f.tags, points: projectFlat(tile.frame, f.line!) });
  }
  const around = bridgeSurroundings(
    features.filter((f) => f.layer === 'highway' && isLine(f) && isBridge(f)),
    tile,
  );
  const context: RoadInput[] = [];
  const under: UnderLine[] = [];
  for (const f of around) {
    const line = { id: f.id, tags: f.tags, points: projectFlat(tile.frame, f.line!) };
    if (f.layer !== 'highway') under.push(line);
    else if (!seen.has(f.id)) context.push(line);
  }
  return roadSurfaces(roads, { ground: tile.ground, within: tile.bbox, under, context });
}

/** Lines around the tile's bridges, the box grown while new bridge ways come in (highways, railways, waterways). */
function bridgeSurroundings(bridges: readonly OsmFeature[], tile: GroundSquare): OsmFeature[] {
  if (bridges.length === 0) return [];
  let box = boxOf(bridges);
  let found: OsmFeature[] = [];
  for (let read = 0; read < BRIDGE_READS; read++) {
    found = tile.source.query(box, ['highway', 'railway', 'water']).filter(isLine);
    const grown = clampSpan(
      boxOf(
        found.filter((f) => f.layer === 'highway' && isBridge(f)),
        box,
      ),
      box,
    );
    if (grown.minLon >= box.minLon && grown.minLat >= box.minLat && grown.maxLon <= box.maxLon && grown.maxLat <= box.maxLat) break;
    box = grown;
  }
  return found;
}

/** Lon/lat box of the features' lines padded by BRIDGE_PAD_METRES, grown over `start` when given. */
function boxOf(features: readonly OsmFeature[], start?: LonLatBBox): LonLatBBox {
  let minLon = Infinity,
    minLat = Infinity,
    maxLon = -Infinity,
    maxLat = -Infinity;
  for (const f of features) {
    const l = f.line!;
    for (let i = 0; i < l.length; i += 2) {
      minLon = Math.min(minLon, l[i]);
      maxLon = Math.max(maxLon, l[i]);
      minLat = Math.min(minLat, l[i + 1]);
      maxLat = Math.max(maxLat, l[i + 1]);
    }
  }
  const padLat = BRIDGE_PAD_METRES / 111_320;
  const padLon = padLat / Math.max(Math.cos((((minLat + maxLat) / 2) * Math.PI) / 180), 0.1);
  const box = { minLon: minLon - padLon, minLat: minLat - padLat, maxLon: maxLon + padLon, maxLat: maxLat + padLat };
  if (!start) return box;
  return {
    minLon: Math.min(box.minLon, start.minLon),
    minLat: Math.min(box.minLat, start.minLat),
    maxLon: Math.max(box.maxLon, start.maxLon),
    maxLat: Math.max(box.maxLat, start.maxLat),
  };
}

/** `box` cut to BRIDGE_MAX_SPAN_DEGREES around the centre of `first`. */
function clampSpan(box: LonLatBBox, first: LonLatBBox): LonLatBBox {
  const cx = (first.minLon + first.maxLon) / 2,
    cy = (first.minLat + first.maxLat) / 2;
  const h = BRIDGE_MAX_SPAN_DEGREES / 2;
  return {
    minLon: Math.max(box.minLon, Math.min(first.minLon, cx - h)),
    minLat: Math.max(box.minLat, Math.min(first.minLat, cy - h)),
    maxLon: Math.min(box.maxLon, Math.max(first.maxLon, cx + h)),
    maxLat: Math.min(box.maxLat, Math.max(first.maxLat, cy + h)),
  };
}
