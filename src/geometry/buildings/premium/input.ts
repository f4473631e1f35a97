/**
 * What the premium mesh builder takes: a building from an official city model with its parts and
 * their semantic surfaces, already in the request's local frame (x east, y north, metres) with the
 * file's absolute heights (z, metres, in the file's vertical datum). Readers turn store records into
 * this (src/sources/premium/mesh-input.ts); everything here is pure geometry.
 */
/** Level of detail: 2 (roofs and walls), 1 (blocks), 0 (a footprint extruded by its measured height). */
export type Lod = 0 | 1 | 2;

/**
 * The semantic class of a surface as the mesh keeps it: the layers an export puts on separate
 * materials. `unknown` (a surface without semantics, e.g. an LoD1 block) is decided by the
 * direction its face looks once the solid is oriented (up: roof, down: floor, else wall).
 */
export type SurfaceRole = 'roof' | 'wall' | 'floor' | 'other';
export type InputRole = SurfaceRole | 'unknown';

/** The order of the triangle ranges in every premium mesh. */
export const SURFACE_ROLES: readonly SurfaceRole[] = ['roof', 'wall', 'floor', 'other'];

export interface PremiumSurface {
  role: InputRole;
  /** Flat x, y, z rings: the outer first, then holes; no closing duplicate needed. */
  rings: number[][];
}

export interface PremiumPartInput {
  /** The object's id in the file. */
  id: string;
  lod: Lod;
  /** The roof type as the file codes it (CityGML `bldg:roofType`), or null. */
  roofType: string | null;
  name: string | null;
  surfaces: PremiumSurface[];
}

export interface PremiumBuildingInput {
  /** The building's id in the file. */
  id: string;
  /** The dataset's id (prefixes every mesh id). */
  dataset: string;
  datasetName: string;
  /** The dataset's source (file names) for the descriptor. */
  source: string;
  lod: Lod;
  roofType: string | null;
  name: string | null;
  parts: PremiumPartInput[];
}

/** The role of a CityGML/CityJSON semantic class name (see SURFACE_CLASSES in the premium source). */
export function roleOfClass(name: string): InputRole {
  switch (name) {
    case 'RoofSurface':
      return 'roof';
    case 'WallSurface':
    case 'Window':
    case 'Door':
      return 'wall';
    case 'GroundSurface':
      return 'floor';
    case 'unknown':
      return 'unknown';
    default:
      // ClosureSurface, OuterCeilingSurface, OuterFloorSurface: neither roof, wall nor ground
      return 'other';
  }
}
