import type { RoofStrategy } from './designs.ts';
import { skeletonDesign, strategy } from './designs.ts';
import { LINEAR } from './profiles.ts';

/** Hipped roof: the straight skeleton, every slope at the same pitch, top scaled to the roof height. */
export const HIPPED_STRATEGIES: RoofStrategy[] = [strategy('hipped/skeleton', 'hipped', (ctx) => skeletonDesign(ctx, LINEAR, false))];
