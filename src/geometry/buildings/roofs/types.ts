/**
 * The roof a building part asks for: its shape (in the spelling of the request's
 * settings.defaultRoofType) and the few numbers every shape is built from. These live with the
 * roofs rather than with build-part.ts so that the roof builders, the tag readers and the part
 * builder all depend on this file and never on each other.
 */

/** Roof shapes of the spec (settings.defaultRoofType), in the spec's spelling. */
export const ROOF_SHAPES = [
  'flat',
  'hipped',
  'gabled',
  'onion',
  'dome',
  'round',
  'skillion',
  'mansard',
  'quadrupleSaltbox',
  'saltbox',
  'gambrel',
  'pyramidal',
] as const;
export type RoofShape = (typeof ROOF_SHAPES)[number];

export interface RoofSpec {
  shape: RoofShape;
  /** Height of the roof above the wall top, metres (0 for flat). */
  height: number;
  /** Direction the roof faces / ridge direction hint, degrees clockwise from north (OSM roof:direction). */
  direction?: number;
  /** OSM roof:orientation. */
  orientation?: 'along' | 'across';
}
