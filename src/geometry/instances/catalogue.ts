import type { NodeType } from './types.ts';

/**
 * Nominal size of each node type: the height (metres) a model at `scale: 1` has. `scale` is the
 * tagged `height` over this (trees: their height); 1 where nothing is tagged. Wires carry their
 * geometry in the descriptor (endpoints), so their scale stays 1. The table of
 * docs/trees.md "Types" copies these numbers.
 */
export const NOMINAL_HEIGHT: Readonly<Record<NodeType, number>> = {
  tree: 10,
  shrubbery: 2,
  bench: 0.9,
  picnicTable: 0.75,
  busStop: 2.6,
  utilityPole: 9,
  transmissionTower: 30,
  wire: 1,
  hydrant: 0.8,
  adColumn: 3,
  trackedCrane: 40,
  towerCrane: 50,
  windTurbine: 100,
  memorial: 3,
  statueSmall: 2,
  statueBig: 6,
  sculpture: 3,
  streetLamp: 6,
  wasteBasket: 1,
  postBox: 1.3,
  drinkingWater: 1,
  flagpole: 8,
  bicycleParking: 0.8,
};

/** Scales outside this range come from typos (`height=900` on a bench); clamped. */
const SCALE_RANGE = [0.05, 20] as const;

/** `scale` for a type from a tagged height (metres), 1 without one. */
export function scaleFor(type: NodeType, height: number | null): number {
  if (height === null || type === 'wire') return 1;
  return Math.min(SCALE_RANGE[1], Math.max(SCALE_RANGE[0], height / NOMINAL_HEIGHT[type]));
}
