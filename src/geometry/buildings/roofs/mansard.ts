import type { RoofStrategy } from './designs.ts';
import { fanDesign, skeletonDesign, strategy } from './designs.ts';
import { MANSARD } from './profiles.ts';

/** Mansard: a steep lower band on every side, a gentle hipped top. Straight skeleton, else a fan. */
export const MANSARD_STRATEGIES: RoofStrategy[] = [
  strategy('mansard/skeleton', 'mansard', (ctx) => skeletonDesign(ctx, MANSARD, false)),
  strategy('mansard/fan', 'mansard', (ctx) => fanDesign(ctx, MANSARD)),
];
