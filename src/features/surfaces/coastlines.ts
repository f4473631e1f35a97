import { projectFlat, type LocalFrame } from '../../frame/local-frame.ts';
import { SEA_AREAS_DEFAULTS, type Coastline } from '../../geometry/surfaces/sea/index.ts';
import type { TileContext } from '../family.ts';

/**
 * The `natural=coastline` ways around a tile, in `frame`: OSM maps the sea only by them
 * (geometry/surfaces/sea decides which side of them a square lies on); they are few, so they are
 * read as far around the tile as the sea rule looks (1 km). Used by the ground and by the forest
 * fill (nothing is planted in the sea).
 */
export function tileCoastlines(tile: TileContext, frame: LocalFrame = tile.frame): Coastline[] {
  const out: Coastline[] = [];
  for (const f of tile.source.query(tile.lonLatBBox(SEA_AREAS_DEFAULTS.nearDistance), ['water'])) {
    if (f.kind === 'line' && f.line && f.tags.natural === 'coastline') out.push({ id: f.id, points: projectFlat(frame, f.line) });
  }
  return out;
}
