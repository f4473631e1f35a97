/**
 * The roof a building part asks for: its shape (in the spelling of the request's
 * settings.defaultRoofType) and the few numbers every shape is built from. These live with the
 * roofs rather than with build-part.ts so that the roof builders, the tag readers and the part
 * builder all depend on this file and never on each other.
 */

import { ROOF_TYPES, type RoofType } from '../../../contract/types.ts';

/** Roof shapes of the spec (settings.defaultRoofType), in the spec's spelling: the contract's list. */
export const ROOF_SHAPES = ROOF_TYPES;
export type RoofShape = RoofType;

export interface RoofSpec {
  shape: RoofShape;
  /** Height of the roof above the wall top, metres (0 for flat). */
  height: number;
  /** Direction the roof faces / ridge direction hint, degrees clockwise from north (OSM roof:direction). */
  direction?: number;
  /** OSM roof:orientation. */
  orientation?: 'along' | 'across';
}
