/**
 * OSM tag values as mappers write them, read into numbers and tokens: lengths with their units
 * (`12 m`, `40'`, `12'6"`), level counts, compass directions (`225`, `SW`), slope angles, colours
 * (`#rgb`, CSS names in any spelling), materials, `;` lists (items.ts) and multi-valued numbers
 * (multi-value.ts). One parser per file; each says what it accepts and returns null for anything
 * else. No key's meaning lives here — which tag means what for a building, a barrier or a road is
 * each family's business (e.g. geometry/buildings/tags/building-tags.ts).
 */
export { parseLength, MAX_LENGTH_METRES } from './length.ts';
export { parseLevels, MAX_LEVELS } from './levels.ts';
export { parseAngle } from './angle.ts';
export { parseDirection } from './direction.ts';
export { parseColour } from './colour.ts';
export { NAMED_COLOURS } from './css-colours.ts';
export { parseMaterial } from './material.ts';
export { parseMultiValued, type MultiValue, type MultiValuePick } from './multi-value.ts';
export { allNegative, isSet, itemIn, numericItems, parseLayer, valueItems } from './items.ts';
