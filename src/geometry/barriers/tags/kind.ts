import type { OsmTags } from '../../../osm-model/feature.ts';
import type { BarrierKind } from '../types.ts';

/** `barrier=*` values built as solids, with common spellings folded onto the documented value. */
const BARRIER_VALUES: Record<string, BarrierKind> = {
  wall: 'wall',
  fence: 'fence',
  wire_fence: 'fence',
  hedge: 'hedge',
  hedge_bank: 'hedge',
  retaining_wall: 'retaining_wall',
  city_wall: 'city_wall',
  guard_rail: 'guard_rail',
  handrail: 'handrail',
  jersey_barrier: 'jersey_barrier',
  kerb: 'kerb',
  bollard: 'bollard',
  gate: 'gate',
  lift_gate: 'lift_gate',
};

const MASONRY = new Set(['stone', 'brick', 'concrete', 'concrete_block', 'masonry', 'rock']);

/**
 * The barrier kind of a way or area, or null when it is not built as a barrier. Points are street
 * objects (the instances group), not barriers. `natural=cliff` is terrain, never a barrier. An
 * embankment is an earth slope the terrain already models; it is a wall only when tagged as one
 * (`wall=*`) or built of masonry. `kerb=flush|no` has no step to build.
 */
export function barrierKind(tags: OsmTags, kind: 'point' | 'line' | 'area'): BarrierKind | null {
  if (kind === 'point') return null;
  const value = tags.barrier?.split(';')[0].trim();
  if (value) {
    const k = BARRIER_VALUES[value];
    if (k === 'kerb' && (tags.kerb === 'flush' || tags.kerb === 'no')) return null;
    if (k) return k;
  }
  if (tags.man_made === 'dyke') return 'dyke';
  if (tags.man_made === 'embankment') {
    const wall = tags.wall !== undefined && tags.wall !== 'no';
    return wall || MASONRY.has((tags.material ?? '').toLowerCase()) ? 'embankment' : null;
  }
  return null;
}

/** Gate nodes built as a leaf across their way (gate-nodes.ts), by `barrier=*`. */
const GATE_NODES: Record<string, 'gate' | 'lift_gate'> = {
  gate: 'gate',
  sliding_gate: 'gate',
  wicket_gate: 'gate',
  hampshire_gate: 'gate',
  lift_gate: 'lift_gate',
  swing_gate: 'lift_gate',
};

/** The kind of a gate mapped as a node (on a way), or null. */
export function gateNodeKind(tags: OsmTags): 'gate' | 'lift_gate' | null {
  return GATE_NODES[tags.barrier?.split(';')[0].trim() ?? ''] ?? null;
}
