import { surfaceAreasFromFeatures, SURFACE_AREA_LAYERS } from '../../geometry/surfaces/classify/index.ts';
import { resolveOverlaps } from '../../geometry/surfaces/assemble/index.ts';
import { deckLandings } from '../../geometry/surfaces/assemble/deck-landings.ts';
import { FILLER_READ_METRES, pavedZone } from '../../geometry/surfaces/filler/paved-zone.ts';
import type { RoadSurfaces } from '../../geometry/surfaces/roads/road-surfaces.ts';
import type { SurfaceArea } from '../../geometry/surfaces/types.ts';
import type { SpecDefaults } from '../../geometry/buildings/building-spec.ts';
import type { BuildingGroupInput } from '../../geometry/buildings/group-layout.ts';
import type { BBox, Footprint } from '../../geometry/types.ts';
import type { GroundSquare } from './ground-square.ts';
import { buildingCutOuts } from './building-cut-outs.ts';
import { fillerBuildings, fillerContext } from './filler.ts';
import { ROAD_READ_METRES, roadSurfacesForTile } from './roads.ts';
import { tileSea } from './sea.ts';

/** Areas and buildings are read this far around the square (the lon/lat box of a local square is not exact). */
export const EDGE_PAD_METRES = 2;

const AREA_LAYERS = SURFACE_AREA_LAYERS.filter((l) => l !== 'highway');

/** The paved zone is built this far past the square (see below). */
const ZONE_MARGIN_METRES = 1;

/** The ground without terrain (docs/ground.md: flat at z = 0). */
const flatGround = () => 0;

/** The ground of one square, resolved, before it is cut to a site and meshed. */
export interface GroundPieces {
  /** Non-overlapping pieces covering the square (tile.bbox), buildings and deck landings cut out. */
  pieces: SurfaceArea[];
  /** The roads as built for the square (their centerlines are an output of their own). */
  roads: RoadSurfaces;
  /** The standing pieces of the buildings cut out of the ground (the terrain is bared under them). */
  cutOut: Footprint[];
  /** The store has coastline but none within reach: the square was left land without knowing. */
  seaUndecided: boolean;
}

/**
 * The ground of the context's square (tile.bbox in tile.frame), docs/ground.md: roads as areas with
 * junctions (geometry/surfaces/roads), mapped areas by kind (geometry/surfaces/classify) and the
 * sea, resolved into non-overlapping pieces with the buildings cut out (geometry/surfaces/assemble).
 * `lap(stage)` is called after each stage, for the tile's timings.
 */
export function groundPieces(tile: GroundSquare, buildings: SpecDefaults, lap: (stage: string) => void = () => {}): GroundPieces {
  // roads shape the ground as far as their junctions reach past the square (roads.ts); areas and
  // buildings only where they overlap it (reading those around too doubled the features decoded)
  const features = [...tile.source.query(tile.lonLatBBox(ROAD_READ_METRES), ['highway']), ...tile.source.query(tile.lonLatBBox(EDGE_PAD_METRES), AREA_LAYERS)];
  lap('surfaceRead');
  const roads = roadSurfacesForTile(features, tile);
  lap('surfaceRoads');
  const landCover = surfaceAreasFromFeatures(
    features.filter((f) => f.kind === 'area'),
    tile.frame,
  );
  const clip: Footprint = { outer: squareRing(tile.bbox), holes: [] };
  const { areas: sea, undecided } = tileSea(tile, clip);
  // the pieces of the square's buildings that stand on the ground are cut out of it; the filler is
  // paved beside the buildings as far as they decide its kind (geometry/surfaces/filler)
  lap('surfaceAreas');
  const cutOut = buildingCutOuts(buildingGroupsAround(tile, EDGE_PAD_METRES), tile.frame, buildings);
  lap('surfaceCutOuts');
  const around = fillerBuildings(tile.source.query(tile.lonLatBBox(FILLER_READ_METRES), ['building']), tile.frame);
  // the zone a metre beyond the square: its sides are then nowhere on the square's edge, where
  // every piece of the base ground along the edge would touch them (base-ground.ts splitFiller
  // decides the polygons apart from the zone's sides without a sweep); the split only reads it in the square
  const pavedFiller = pavedZone(fillerContext(features, around, tile.frame), grownBox(tile.bbox, ZONE_MARGIN_METRES));
  lap('surfaceFillerZone');
  // where a deck runs at the ground's level its top is the ground: the ground under it is cut
  // there like under a building, but the terrain is not bared (the deck covers it)
  const landings = deckLandings(roads.areas, tile.ground ?? flatGround);
  lap('surfaceLandings');
  const pieces = resolveOverlaps([...roads.areas, ...landCover, ...sea], {
    cutOut: landings.length ? [...cutOut, ...landings] : cutOut,
    clip,
    pavedFiller,
  });
  lap('surfaceAssemble');
  return { pieces, roads, cutOut, seaUndecided: undecided };
}

/** The square as a ring, counter-clockwise. */
export function squareRing(b: BBox): number[] {
  return [b.minX, b.minY, b.maxX, b.minY, b.maxX, b.maxY, b.minX, b.maxY];
}

function grownBox(b: BBox, d: number): BBox {
  return { minX: b.minX - d, minY: b.minY - d, maxX: b.maxX + d, maxY: b.maxY + d };
}

/** Every building (outline with its parts) that meets the square, whichever tile builds it. */
export function buildingGroupsAround(tile: GroundSquare, padMetres: number): BuildingGroupInput[] {
  const refs = tile.source.buildingGroups(tile.lonLatBBox(padMetres));
  const members = tile.source.buildingGroupMembers(refs.map((g) => g.gid));
  const out: BuildingGroupInput[] = [];
  for (const g of refs) {
    const [principal, ...parts] = members.get(g.gid) ?? [];
    if (principal) out.push({ principal, parts, rep: g.rep });
  }
  return out;
}
