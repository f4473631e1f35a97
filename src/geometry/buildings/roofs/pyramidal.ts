import type { RoofStrategy } from './designs.ts';
import { fanDesign, strategy } from './designs.ts';
import { LINEAR } from './profiles.ts';

/** Pyramidal roof: a triangle from every side up to one apex (centroid, or a point of the kernel). */
export const PYRAMIDAL_STRATEGIES: RoofStrategy[] = [strategy('pyramidal/fan', 'pyramidal', (ctx) => fanDesign(ctx, LINEAR))];
