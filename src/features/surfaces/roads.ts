import { projectFlat } from '../../frame/local-frame.ts';
import { roadSurfaces, type RoadInput, type RoadSurfaces } from '../../geometry/surfaces/roads/road-surfaces.ts';
import { JUNCTION_REACH } from '../../geometry/surfaces/roads/within.ts';
import type { OsmFeature } from '../../osm-model/feature.ts';
import type { TileContext } from '../family.ts';

/** Highway ways are read this far around the tile: every way whose junctions can reach into it (JUNCTION_REACH). */
export const ROAD_READ_METRES = JUNCTION_REACH;

/**
 * Road centerlines (highway lines) around the tile → carriageway, sidewalk and junction areas plus
 * centerlines, built only where they meet the tile (`within`): an avenue crossing a whole city was
 * otherwise built end to end by every tile it passes (half of the ground's time on a 3 km grid of
 * avenues). The ways stay whole for the graph, so trims, junction numbers and bridge decks are
 * those of the whole ways, the same in every tile.
 */
export function roadSurfacesForTile(features: readonly OsmFeature[], tile: TileContext): RoadSurfaces {
  const roads: RoadInput[] = [];
  for (const f of features) {
    if (f.layer !== 'highway' || f.kind !== 'line' || !f.line) continue;
    roads.push({ id: f.id, tags: f.tags, points: projectFlat(tile.frame, f.line) });
  }
  return roadSurfaces(roads, { ground: tile.ground, within: tile.bbox });
}
