import { projectFlat } from '../../frame/local-frame.ts';
import { roadSurfaces, type RoadSurfaces } from '../../geometry/surfaces/roads/road-surfaces.ts';
import type { OsmFeature } from '../../sources/osm/types.ts';
import type { TileContext } from '../family.ts';

/** Road centerlines (highway lines) around the tile → carriageway, sidewalk and junction areas plus centerlines. */
export function roadSurfacesForTile(features: readonly OsmFeature[], tile: TileContext): RoadSurfaces {
  const roads = [];
  for (const f of features) {
    if (f.layer !== 'highway' || f.kind !== 'line' || !f.line) continue;
    roads.push({ id: f.id, tags: f.tags, points: projectFlat(tile.frame, f.line) });
  }
  return roadSurfaces(roads, { ground: tile.ground });
}
