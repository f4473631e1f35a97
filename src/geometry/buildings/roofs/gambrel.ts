import type { RoofStrategy } from './designs.ts';
import { acrossDesign, skeletonDesign, strategy, suitsOneRidge } from './designs.ts';
import { GAMBREL_ACROSS, GAMBREL_INSET } from './profiles.ts';

/** Gambrel (barn) roof: two pitches per side and gables at the ends; the gabled family's rules for the ridge. */
export const GAMBREL_STRATEGIES: RoofStrategy[] = [
  strategy('gambrel/oriented', 'gambrel', (ctx) => (suitsOneRidge(ctx) ? acrossDesign(ctx, GAMBREL_ACROSS) : 'the footprint is not rectangle-like')),
  strategy('gambrel/skeleton', 'gambrel', (ctx) => skeletonDesign(ctx, GAMBREL_INSET, true)),
  strategy('gambrel/one-ridge', 'gambrel', (ctx) => (suitsOneRidge(ctx, 0, 0.75) ? acrossDesign(ctx, GAMBREL_ACROSS) : 'one ridge does not fit the footprint')),
];
