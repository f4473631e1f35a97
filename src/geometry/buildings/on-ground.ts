import { mapRing } from '../../frame/stable-frame.ts';
import { footprintGroundRange, type GroundSampler } from '../terrain/ground-sampler.ts';
import type { Ring } from '../types.ts';
import type { BuildingSpec } from './building-spec.ts';
import type { GroupLayout } from './group-layout.ts';

/**
 * How a building meets sloping ground. Its floor lies at the lowest ground under it, so it never
 * floats and its walls reach the ground all the way round. Its heights count:
 * - from the lowest ground when any piece has a tagged `height` (Simple 3D Buildings: the tagged
 *   height is measured there; the uphill side may then be buried, and the piece says so);
 * - from the highest ground otherwise (heights estimated from levels or defaults): an estimate
 *   should not bury the building, so it stands on its uphill ground and its walls reach down to
 *   the lowest.
 * All pieces of one building share one reference, so parts stacked on one another (a `min_height`
 * matching another part's `height`) stay stacked.
 */

export interface GroundLevels {
  /** Lowest ground under the whole building: the floor of every piece standing on the ground. */
  lowest: number;
  /** Highest ground under the whole building. */
  highest: number;
  /** Where the building's heights (`height`, `min_height`, levels) count from: `lowest` or `highest`. */
  reference: number;
}

/** A height from the `height` tag, the piece's own or its outline's. */
export function hasTaggedHeight(spec: BuildingSpec): boolean {
  return spec.heightSource === 'height' || spec.heightSource === 'outline height';
}

/** The ground levels of a building (all at 0 without terrain). */
export function groundLevels(layout: GroupLayout, ground: GroundSampler | undefined): GroundLevels {
  if (!ground) return { lowest: 0, highest: 0, reference: 0 };
  let lowest = Infinity,
    highest = -Infinity;
  for (const member of layout.members)
    for (const f of member.footprints) {
      const range = footprintGroundRange(ground, mapRing(layout.toRequest, f.outer));
      lowest = Math.min(lowest, range.min);
      highest = Math.max(highest, range.max);
    }
  if (!Number.isFinite(lowest) || !Number.isFinite(highest)) return { lowest: 0, highest: 0, reference: 0 };
  const tagged = layout.pieces.some((p) => hasTaggedHeight(p.spec));
  return { lowest, highest, reference: tagged ? lowest : highest };
}

/** Bottom and top of a piece's walls: standing pieces reach down to the lowest ground, raised ones start at their `min_height`. */
export function wallSpan(spec: BuildingSpec, levels: GroundLevels): { baseZ: number; wallTopZ: number } {
  return {
    baseZ: spec.minHeight > 0 ? levels.reference + spec.minHeight : levels.lowest,
    wallTopZ: levels.reference + spec.wallHeight,
  };
}

/** Buried by less than this (metres) is rounding, not a buried side worth a note. */
const BURIED_TOLERANCE = 0.001;

/**
 * The `dataNotes` line for a piece whose top lies below the highest ground under its own
 * footprint (request frame), or null when it is not buried. Only heights counted from the lowest
 * ground can be buried.
 */
export function buriedNote(top: number, footprint: Ring, levels: GroundLevels, ground: GroundSampler | undefined): string | null {
  if (!ground || levels.reference !== levels.lowest || top >= levels.highest - BURIED_TOLERANCE) return null;
  const uphill = footprintGroundRange(ground, footprint).max;
  const depth = uphill - top;
  if (!(depth > BURIED_TOLERANCE)) return null;
  return `uphill side buried: the top is ${round2(depth)} m below the highest ground under the footprint (heights count from the lowest ground, as a tagged height does)`;
}

function round2(v: number): number {
  return Math.round(v * 100) / 100;
}
