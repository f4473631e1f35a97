import type { RoofStrategy } from './designs.ts';
import { fanDesign, strategy } from './designs.ts';
import { ONION } from './profiles.ts';

/** Onion dome: bulges out past the walls, then draws in to a point. Needs a single apex. */
export const ONION_STRATEGIES: RoofStrategy[] = [strategy('onion/fan', 'onion', (ctx) => fanDesign(ctx, ONION))];
