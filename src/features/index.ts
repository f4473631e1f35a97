import type { FeatureFamily } from './family.ts';
import { buildingsFamily } from './buildings/index.ts';
import { surfacesFamily } from './surfaces/index.ts';
import { barriersFamily } from './barriers/index.ts';
import { instancesFamily } from './instances/index.ts';

/** The feature families a tile can build, in the order they run (the ground after the buildings it is cut around). */
export const FAMILIES: readonly FeatureFamily[] = [buildingsFamily, surfacesFamily, barriersFamily, instancesFamily];
