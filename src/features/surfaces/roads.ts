import { projectFlat } from '../../frame/local-frame.ts';
import { roadSurfaces, type RoadInput, type RoadSurfaces } from '../../geometry/surfaces/roads/road-surfaces.ts';
import type { OsmFeature } from '../../sources/osm/types.ts';
import type { TileContext } from '../family.ts';

/**
 * Road centerlines (highway lines) around the tile → carriageway, sidewalk and junction areas plus
 * centerlines, built only within `marginMetres` of the tile (`within`): an avenue crossing a whole
 * city was otherwise built end to end by every tile it passes (half of the ground's time on a
 * 3 km grid of avenues). The ways stay whole for the graph, so trims, junction numbers and bridge
 * decks are those of the whole ways, the same in every tile.
 */
export function roadSurfacesForTile(features: readonly OsmFeature[], tile: TileContext, marginMetres: number): RoadSurfaces {
  const b = tile.bbox;
  const roads: RoadInput[] = [];
  for (const f of features) {
    if (f.layer !== 'highway' || f.kind !== 'line' || !f.line) continue;
    roads.push({ id: f.id, tags: f.tags, points: projectFlat(tile.frame, f.line) });
  }
  const within = { minX: b.minX - marginMetres, minY: b.minY - marginMetres, maxX: b.maxX + marginMetres, maxY: b.maxY + marginMetres };
  return roadSurfaces(roads, { ground: tile.ground, within });
}
