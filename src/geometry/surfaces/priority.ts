import type { SurfaceKind } from './types.ts';

/**
 * Which kind keeps the ground where mapped areas overlap (higher wins): junctions over
 * carriageways over road areas and parking over paths and pavements over sports and water over
 * land use and natural cover. Buildings' footprints are cut out of all of them. Ties (two parks
 * overlapping) go to the smaller area, then to the lower OSM id, so the answer never depends on
 * query order. Bridge decks are above the ground and are not subtracted from what lies below.
 *
 * Urban land use without a finer kind (`landuse=residential/commercial/retail/…`) is hard ground
 * (`pavement`, lowest of all pavements); whatever no mapped area covers is the base ground
 * (`grass`, marked `inferred: true` in the descriptor) so the model has no holes.
 */
export const SURFACE_PRIORITY: Record<SurfaceKind, number> = {
  roadwayIntersection: 100,
  asphalt: 90,
  roadwayArea: 85,
  helipad: 82,
  pavement: 80,
  pitch: 70,
  water: 65,
  buildingConstruction: 60,
  construction: 55,
  sand: 50,
  rock: 50,
  garden: 45,
  manicuredGrass: 44,
  grass: 40,
  shrubbery: 38,
  forest: 36,
  farmland: 30,
};

/** Priority of urban land use mapped as pavement: below every mapped pavement, above the base ground. */
export const URBAN_LANDUSE_PRIORITY = 10;

/** Priority of the inferred base ground (lowest). */
export const BASE_GROUND_PRIORITY = 0;
