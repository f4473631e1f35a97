import type { RoofShape } from '../roofs/types.ts';

/**
 * OSM `roof:shape` values (any case, `-`/`_`/space alike) mapped onto the twelve shapes we build.
 * `exact` is false where the OSM shape is a close cousin rather than the same roof (e.g.
 * `half-hipped`, whose gable ends are clipped by small hips, is built gabled).
 */
export interface ParsedRoofShape {
  shape: RoofShape;
  exact: boolean;
}

const EXACT: Record<string, RoofShape> = {
  flat: 'flat',
  skillion: 'skillion',
  gabled: 'gabled',
  hipped: 'hipped',
  pyramidal: 'pyramidal',
  dome: 'dome',
  onion: 'onion',
  round: 'round',
  mansard: 'mansard',
  gambrel: 'gambrel',
  saltbox: 'saltbox',
  quadruple_saltbox: 'quadrupleSaltbox',
  quadruplesaltbox: 'quadrupleSaltbox',
};

/** Spellings and cousins, each with the shape that looks most like it. */
const NEAR: Record<string, RoofShape> = {
  // one slope
  lean_to: 'skillion',
  shed: 'skillion',
  mono_pitched: 'skillion',
  monopitch: 'skillion',
  sawtooth: 'skillion',
  // ridged
  gable: 'gabled',
  pitched: 'gabled',
  double_pitched: 'gabled',
  dual_pitched: 'gabled',
  half_hipped: 'gabled',
  side_half_hipped: 'gabled',
  gabled_height_moved: 'saltbox',
  double_saltbox: 'gabled',
  bellcast_gable: 'gabled',
  zakomar: 'round',
  // hipped family
  hip: 'hipped',
  side_hipped: 'hipped',
  hipped_and_gabled: 'hipped',
  crosspitched: 'hipped',
  cross_gabled: 'hipped',
  // one apex
  pyramid: 'pyramidal',
  tented: 'pyramidal',
  tent: 'pyramidal',
  cone: 'pyramidal',
  conical: 'pyramidal',
  helm: 'pyramidal',
  spire: 'pyramidal',
  // curved
  spherical: 'dome',
  cupola: 'dome',
  barrel: 'round',
  arched: 'round',
  vault: 'round',
  butterfly: 'flat',
};

export function parseRoofShape(value: string | undefined): ParsedRoofShape | null {
  if (value === undefined) return null;
  const key = value
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');
  if (key in EXACT) return { shape: EXACT[key], exact: true };
  if (key in NEAR) return { shape: NEAR[key], exact: false };
  return null;
}
