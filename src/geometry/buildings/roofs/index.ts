import type { Footprint } from '../../types.ts';
import type { MeshBuilder } from '../../mesh-builder.ts';
import type { RoofShape, RoofSpec } from './types.ts';
import { triangulateFootprint } from '../../triangulate/index.ts';
import type { RoofContext, RoofStrategy } from './designs.ts';
import { emitRoof } from './emit.ts';
import { FLAT_STRATEGIES } from './flat.ts';
import { SKILLION_STRATEGIES } from './skillion.ts';
import { GABLED_STRATEGIES } from './gabled.ts';
import { HIPPED_STRATEGIES } from './hipped.ts';
import { PYRAMIDAL_STRATEGIES } from './pyramidal.ts';
import { DOME_STRATEGIES } from './dome.ts';
import { ONION_STRATEGIES } from './onion.ts';
import { ROUND_STRATEGIES } from './round.ts';
import { MANSARD_STRATEGIES } from './mansard.ts';
import { GAMBREL_STRATEGIES } from './gambrel.ts';
import { SALTBOX_STRATEGIES } from './saltbox.ts';
import { QUADRUPLE_SALTBOX_STRATEGIES } from './quadruple-saltbox.ts';

/**
 * Roofs for building parts: dispatches a roof shape to its builders and falls back, shape by
 * shape, to the nearest simpler roof when a footprint does not allow it.
 *
 * @example
 * await loadRoofs(); // once per process/worker: loads the straight skeleton
 * const mesh = new MeshBuilder();
 * const roof = buildRoof(mesh, footprint, 12, { shape: 'gabled', height: 3 });
 * addWalls(mesh, roof.rings.outer, 0, 12); // walls follow roof.rings, then a floor
 */

export { loadSkeleton as loadRoofs } from '../../skeleton/index.ts';
export { footprintHalfWidth } from './ridge.ts';

export interface RoofResult {
  /** The shape actually built. */
  shape: RoofShape;
  /** The construction used, e.g. `gabled/skeleton` (see ROOF_CHAINS). */
  strategy: string;
  /** Why the requested shape was not built, when another shape was. */
  fallback?: string;
  /** Rings the walls must follow up to the wall top: the footprint's, plus any inserted eave points. */
  rings: Footprint;
  /** Highest point of the roof. */
  maxZ: number;
}

export interface BuildRoofOptions {
  /** Strategies not to use (e.g. ones whose solid failed a mesh check). */
  skip?: ReadonlySet<string>;
}

const chain = (...lists: RoofStrategy[][]): RoofStrategy[] => {
  const seen = new Set<string>();
  return lists.flat().filter((s) => !seen.has(s.name) && seen.add(s.name));
};

const HIPPED_CHAIN = chain(HIPPED_STRATEGIES, PYRAMIDAL_STRATEGIES, FLAT_STRATEGIES);
const GABLED_CHAIN = chain(GABLED_STRATEGIES, HIPPED_CHAIN);

/** Per requested shape, the strategies tried in order; the first that works is built. */
export const ROOF_CHAINS: Record<RoofShape, readonly RoofStrategy[]> = {
  flat: FLAT_STRATEGIES,
  skillion: chain(SKILLION_STRATEGIES, FLAT_STRATEGIES),
  gabled: GABLED_CHAIN,
  hipped: HIPPED_CHAIN,
  pyramidal: chain(PYRAMIDAL_STRATEGIES, HIPPED_CHAIN),
  dome: chain(DOME_STRATEGIES, PYRAMIDAL_STRATEGIES, HIPPED_CHAIN),
  onion: chain(ONION_STRATEGIES, DOME_STRATEGIES, PYRAMIDAL_STRATEGIES, HIPPED_CHAIN),
  round: chain(ROUND_STRATEGIES, GABLED_CHAIN),
  mansard: chain(MANSARD_STRATEGIES, HIPPED_CHAIN),
  gambrel: chain(GAMBREL_STRATEGIES, GABLED_CHAIN),
  saltbox: chain(SALTBOX_STRATEGIES, GABLED_CHAIN),
  quadrupleSaltbox: chain(QUADRUPLE_SALTBOX_STRATEGIES, HIPPED_CHAIN),
};

/** Roofs lower than this are built flat. */
export const MIN_ROOF_HEIGHT = 0.01;

/**
 * Builds the roof of one building part into `mesh`: everything above the wall top, including gable
 * walls. The footprint must be normalised (outer counter-clockwise, holes clockwise). Build the
 * walls along the returned `rings` so they meet the roof exactly.
 */
export function buildRoof(mesh: MeshBuilder, footprint: Footprint, wallTopZ: number, roof: RoofSpec, options: BuildRoofOptions = {}): RoofResult {
  const requested = roof.shape;
  const tooLow = requested !== 'flat' && !(roof.height >= MIN_ROOF_HEIGHT);
  const strategies = tooLow ? FLAT_STRATEGIES : (ROOF_CHAINS[requested] ?? FLAT_STRATEGIES);
  const ctx: RoofContext = { footprint, wallTopZ, roof };
  const reasons: string[] = tooLow ? [`the roof height ${roof.height} m is too small`] : [];
  for (const s of strategies) {
    if (options.skip?.has(s.name)) continue;
    const design = s.build(ctx);
    if (typeof design === 'string') {
      reasons.push(`${s.name}: ${design}`);
      continue;
    }
    const emitted = emitRoof(mesh, design.plan, design.z, wallTopZ);
    if (typeof emitted === 'string') {
      reasons.push(`${s.name}: ${emitted}`);
      continue;
    }
    return {
      shape: s.shape,
      strategy: s.name,
      ...(s.shape !== requested ? { fallback: `${requested} roof not built (${reasons.join('; ') || 'skipped'})` } : {}),
      rings: emitted.rings,
      maxZ: emitted.maxZ,
    };
  }
  // Nothing closed up (a self-crossing footprint): the plain earcut cap, as before roofs existed.
  const { coords, triangles } = triangulateFootprint(footprint);
  const ids: number[] = [];
  for (let i = 0; i < coords.length; i += 2) ids.push(mesh.vertex(coords[i], coords[i + 1], wallTopZ));
  for (let t = 0; t < triangles.length; t += 3) mesh.triangle(ids[triangles[t]], ids[triangles[t + 1]], ids[triangles[t + 2]]);
  return {
    shape: 'flat',
    strategy: 'flat/earcut',
    fallback: `${requested} roof not built (${reasons.join('; ') || 'no strategy left'})`,
    rings: footprint,
    maxZ: wallTopZ,
  };
}
