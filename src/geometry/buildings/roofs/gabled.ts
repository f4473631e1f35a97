import type { RoofStrategy } from './designs.ts';
import { acrossDesign, skeletonDesign, strategy, suitsOneRidge } from './designs.ts';
import { GABLE_ACROSS, LINEAR } from './profiles.ts';

/**
 * Gabled roof. Rectangle-like footprints (or any convex one with roof:direction/orientation) get
 * one ridge along the chosen axis; L, T, U and other footprints get the straight skeleton with a
 * gable at every ridge end, so each wing has its own ridge and the valleys meet properly. When the
 * skeleton cannot be had, one ridge across the whole footprint is the last gabled resort.
 */
export const GABLED_STRATEGIES: RoofStrategy[] = [
  strategy('gabled/oriented', 'gabled', (ctx) => (suitsOneRidge(ctx) ? acrossDesign(ctx, GABLE_ACROSS) : 'the footprint is not rectangle-like')),
  strategy('gabled/skeleton', 'gabled', (ctx) => skeletonDesign(ctx, LINEAR, true)),
  strategy('gabled/one-ridge', 'gabled', (ctx) => acrossDesign(ctx, GABLE_ACROSS)),
];
