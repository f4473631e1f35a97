import type { RoofStrategy } from './designs.ts';
import { fanDesign, skeletonDesign, strategy } from './designs.ts';
import { QUARTER_CIRCLE } from './profiles.ts';

/**
 * Dome: the footprint shrunk towards an apex along a quarter circle (a true hemisphere on a round
 * footprint). Footprints without a single apex (concave, courtyards) get the quarter circle on the
 * straight skeleton instead.
 */
export const DOME_STRATEGIES: RoofStrategy[] = [
  strategy('dome/fan', 'dome', (ctx) => fanDesign(ctx, QUARTER_CIRCLE)),
  strategy('dome/skeleton', 'dome', (ctx) => skeletonDesign(ctx, QUARTER_CIRCLE, false)),
];
