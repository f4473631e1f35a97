import type { RoofStrategy } from './designs.ts';
import { acrossDesign, skeletonDesign, strategy, suitsOneRidge } from './designs.ts';
import { GABLE_ACROSS, LINEAR } from './profiles.ts';

/**
 * Gabled roof. Rectangle-like footprints (also with small jogs, or convex ones with
 * roof:direction/orientation) get one ridge along the chosen axis; L, T, U, courtyard and other
 * footprints get the straight skeleton with a gable at every ridge end, so each wing has its own
 * ridge and the valleys meet properly. When the skeleton offers no ridge end, one ridge across a
 * convex or fairly full footprint is the last gabled resort; otherwise the roof falls back to hipped.
 */
export const GABLED_STRATEGIES: RoofStrategy[] = [
  strategy('gabled/oriented', 'gabled', (ctx) => (suitsOneRidge(ctx) ? acrossDesign(ctx, GABLE_ACROSS) : 'the footprint is not rectangle-like')),
  strategy('gabled/skeleton', 'gabled', (ctx) => skeletonDesign(ctx, LINEAR, true)),
  strategy('gabled/one-ridge', 'gabled', (ctx) => (suitsOneRidge(ctx, 0, 0.75) ? acrossDesign(ctx, GABLE_ACROSS) : 'one ridge does not fit the footprint')),
];
