/** OSM building tags (Simple 3D Buildings): one parser per file, combined by parseBuildingTags. */
export { parseBuildingTags } from './building-tags.ts';
export type { BuildingTagDefaults, BuildingTags, HeightSource, RoofHeightSource } from './building-tags.ts';
export { parseLength, MAX_LENGTH_METRES } from './length.ts';
export { parseLevels, MAX_LEVELS } from './levels.ts';
export { parseRoofAngle } from './angle.ts';
export { parseRoofShape } from './roof-shape.ts';
export type { ParsedRoofShape } from './roof-shape.ts';
export { parseDirection } from './direction.ts';
export { parseOrientation } from './orientation.ts';
export { parseColour } from './colour.ts';
export { parseMaterial } from './material.ts';
export { defaultRoofHeight, roofHeightFromAngle } from './roof-height.ts';
export { parseMultiValued } from './multi-value.ts';
export type { MultiValue, MultiValuePick } from './multi-value.ts';
export { undergroundReason, isBridgePart } from './placement.ts';
