import type { RoofStrategy } from './designs.ts';
import { fanDesign, skeletonDesign, strategy } from './designs.ts';
import { QUADRUPLE_SALTBOX } from './profiles.ts';

/** Quadruple saltbox: hipped slopes on every side reaching full height halfway in, with a flat deck on top. */
export const QUADRUPLE_SALTBOX_STRATEGIES: RoofStrategy[] = [
  strategy('quadrupleSaltbox/skeleton', 'quadrupleSaltbox', (ctx) => skeletonDesign(ctx, QUADRUPLE_SALTBOX, false)),
  strategy('quadrupleSaltbox/fan', 'quadrupleSaltbox', (ctx) => fanDesign(ctx, QUADRUPLE_SALTBOX)),
];
