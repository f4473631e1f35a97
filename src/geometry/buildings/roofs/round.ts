import type { RoofStrategy } from './designs.ts';
import { acrossDesign, skeletonDesign, strategy, suitsOneRidge } from './designs.ts';
import { QUARTER_CIRCLE, ROUND_ACROSS } from './profiles.ts';

/** Round (barrel) roof: a half-circle section swept along the ridge; the gabled family's rules for the ridge. */
export const ROUND_STRATEGIES: RoofStrategy[] = [
  strategy('round/oriented', 'round', (ctx) => (suitsOneRidge(ctx) ? acrossDesign(ctx, ROUND_ACROSS) : 'the footprint is not rectangle-like')),
  strategy('round/skeleton', 'round', (ctx) => skeletonDesign(ctx, QUARTER_CIRCLE, true)),
  strategy('round/one-ridge', 'round', (ctx) => (suitsOneRidge(ctx, 0, 0.75) ? acrossDesign(ctx, ROUND_ACROSS) : 'one ridge does not fit the footprint')),
];
