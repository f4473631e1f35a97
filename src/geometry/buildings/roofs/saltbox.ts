import type { RoofStrategy } from './designs.ts';
import { acrossDesign, strategy, suitsOneRidge } from './designs.ts';
import { SALTBOX_ACROSS } from './profiles.ts';

/**
 * Saltbox: a gabled roof with the ridge off-centre, the long slope facing roof:direction. Built on
 * convex and rectangle-like footprints; others fall back to the gabled roof.
 */
export const SALTBOX_STRATEGIES: RoofStrategy[] = [
  strategy('saltbox/oriented', 'saltbox', (ctx) =>
    suitsOneRidge(ctx, 0) ? acrossDesign(ctx, SALTBOX_ACROSS) : 'the footprint is neither convex nor rectangle-like',
  ),
];
