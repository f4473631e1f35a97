/**
 * OSM building tags (Simple 3D Buildings): what each tag means for a building, one rule per file,
 * combined by parseBuildingTags. The values themselves (lengths, levels, colours…) are read by the
 * generic parsers of src/osm-model/tag-values/.
 */
export { parseBuildingTags } from './building-tags.ts';
export type { BuildingTagDefaults, BuildingTags, HeightSource, RoofHeightSource } from './building-tags.ts';
export { parseRoofShape } from './roof-shape.ts';
export type { ParsedRoofShape } from './roof-shape.ts';
export { parseOrientation } from './orientation.ts';
export { defaultRoofHeight, roofHeightFromAngle } from './roof-height.ts';
export { undergroundReason, isBridgePart } from './placement.ts';
