import type { Footprint } from '../types.ts';
import type { RoofShape, RoofSpec } from './roofs/types.ts';
import { parseBuildingTags } from './tags/index.ts';
import { footprintHalfWidth } from './roofs/index.ts';

/** Everything the builder needs about one building or part: its tags read with the request defaults. */
export interface BuildingSpec {
  /** Top of the building including the roof, metres above its ground. */
  height: number;
  /** Bottom of the walls (min_height), metres above its ground. */
  minHeight: number;
  /** Top of the walls = where the roof starts. */
  wallHeight: number;
  levels: number | null;
  /** Where the height came from: height, levels, default (or `outline …` when inherited). */
  heightSource: string;
  roof: RoofSpec;
  /** Whether the data named the roof shape (else the request's defaultRoofType was used). */
  roofTagged: boolean;
  /** Descriptor facts about looks: colours (#rrggbb) and materials, only those known. */
  appearance: Record<string, string | number | boolean>;
  /** For the descriptor's `dataNotes`: tags that were present but unusable (`key=value`, so the
   * defaults were used), then how usable tags were read where it is not obvious (multi-values
   * reduced, a bridge without a deck height). */
  notes: string[];
}

export interface SpecDefaults {
  defaultLevels: number;
  defaultLevelHeight: number;
  defaultRoofType: RoofShape;
}

/** Reads a building's Simple 3D Buildings tags (tags/building-tags.ts has the rules). */
export function buildingSpecFromTags(tags: Record<string, string>, d: SpecDefaults, footprint: Footprint): BuildingSpec {
  const t = parseBuildingTags(tags, {
    defaultLevels: d.defaultLevels,
    defaultLevelHeight: d.defaultLevelHeight,
    defaultRoofType: d.defaultRoofType,
    footprintHalfWidth: () => footprintHalfWidth(footprint.outer),
  });
  const appearance: BuildingSpec['appearance'] = {};
  if (t.colours.building) appearance.buildingColour = t.colours.building;
  if (t.colours.roof) appearance.roofColour = t.colours.roof;
  if (t.materials.building) appearance.buildingMaterial = t.materials.building;
  if (t.materials.roof) appearance.roofMaterial = t.materials.roof;
  if (t.roofLevels !== null) appearance.roofLevels = t.roofLevels;
  if (t.roofDirection !== null) appearance.roofDirection = t.roofDirection;
  if (t.roofOrientation !== null) appearance.roofOrientation = t.roofOrientation;
  if (!t.hasDefaultRoof) appearance.roofShapeExact = t.roofShapeExact;
  if (t.roofShape !== 'flat') appearance.roofHeightSource = t.roofHeightSource;
  return {
    height: t.height,
    minHeight: t.minHeight,
    wallHeight: t.wallHeight,
    levels: t.levels,
    heightSource: t.heightSource,
    roof: {
      shape: t.roofShape,
      height: t.roofHeight,
      ...(t.roofDirection !== null ? { direction: t.roofDirection } : {}),
      ...(t.roofOrientation !== null ? { orientation: t.roofOrientation } : {}),
    },
    roofTagged: !t.hasDefaultRoof,
    appearance,
    notes: [...t.ignored, ...t.notes],
  };
}
