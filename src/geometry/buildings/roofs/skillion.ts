import type { RoofStrategy } from './designs.ts';
import { acrossDesign, strategy } from './designs.ts';
import { SKILLION_ACROSS } from './profiles.ts';

/**
 * Skillion (shed) roof: one plane over the whole footprint, falling towards roof:direction (else
 * across the longest side). Works on any footprint; the walls rise to meet the plane.
 */
export const SKILLION_STRATEGIES: RoofStrategy[] = [strategy('skillion', 'skillion', (ctx) => acrossDesign(ctx, SKILLION_ACROSS))];
