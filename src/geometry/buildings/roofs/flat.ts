import { planFromFootprint } from './plan.ts';
import type { RoofStrategy } from './designs.ts';
import { strategy } from './designs.ts';

/** Flat roof: the footprint itself at the wall top (every ring vertex kept, courtyards allowed). */
export const FLAT_STRATEGIES: RoofStrategy[] = [
  strategy('flat', 'flat', (ctx) => {
    const plan = planFromFootprint(ctx.footprint, () => 0);
    if (!plan) return 'the footprint cannot be triangulated';
    return { plan, z: plan.s.map(() => ctx.wallTopZ) };
  }),
];
