import type { BarrierKind, ProfileName } from './types.ts';

/**
 * The one table of barrier sizes used where the way has no `height`/`width` (docs/barriers.md
 * prints it; a docs test keeps the copy current). Rows are tried in order; the
 * first whose kind matches and whose `materials` (if any) contain the way's `material` decides.
 * Figures are typical built sizes (EN 1317 guard rails and jersey barriers, kerb stones of
 * 15 cm, garden walls and fences of 1–2 m, hedges trimmed 1.5 m tall and 1 m thick).
 */
export interface BarrierDefault {
  kind: BarrierKind;
  /** Applies only to ways with one of these `material` values. */
  materials?: readonly string[];
  height: number;
  width: number;
  profile: ProfileName;
  /** Post spacing of bollard rows, metres. */
  spacing?: number;
  /** Opening of a gate node (gate-nodes.ts) without `width` on it or its road, metres. */
  span?: number;
  /** Why these figures, for docs/barriers.md. */
  note: string;
}

export const BARRIER_DEFAULTS: readonly BarrierDefault[] = [
  { kind: 'wall', materials: ['stone'], height: 2, width: 0.5, profile: 'box', note: 'dry or mortared stone is thick' },
  { kind: 'wall', materials: ['brick'], height: 2, width: 0.25, profile: 'box', note: 'one brick and a half' },
  { kind: 'wall', materials: ['concrete', 'concrete_block'], height: 2, width: 0.2, profile: 'box', note: 'cast or block wall' },
  { kind: 'wall', height: 2, width: 0.3, profile: 'box', note: 'garden or boundary wall' },
  { kind: 'fence', materials: ['wood'], height: 1.2, width: 0.08, profile: 'box', note: 'picket or board fence' },
  { kind: 'fence', materials: ['metal', 'chain_link', 'wire'], height: 1.8, width: 0.05, profile: 'box', note: 'mesh or railing, drawn as a thin panel' },
  { kind: 'fence', height: 1.5, width: 0.05, profile: 'box', note: 'a fence is drawn as a thin solid panel' },
  { kind: 'hedge', height: 1.5, width: 1, profile: 'rounded', note: 'trimmed hedge, rounded top' },
  { kind: 'retaining_wall', height: 2, width: 0.4, profile: 'box', note: 'the visible face above the lower ground' },
  { kind: 'city_wall', height: 8, width: 2, profile: 'box', note: 'historic fortification' },
  { kind: 'guard_rail', height: 0.75, width: 0.3, profile: 'box', note: 'W-beam on posts (EN 1317), drawn as its envelope' },
  { kind: 'handrail', height: 1, width: 0.05, profile: 'box', note: 'rail height of stairs and ramps' },
  { kind: 'jersey_barrier', height: 0.81, width: 0.61, profile: 'jersey', note: 'New Jersey profile, 32 in × 24 in' },
  { kind: 'kerb', height: 0.15, width: 0.15, profile: 'box', note: 'kerb stone; kerb=lowered 5 cm, kerb=flush is not built' },
  { kind: 'bollard', height: 1, width: 0.2, profile: 'box', spacing: 1.5, note: 'a row of posts 1.5 m apart along the way' },
  { kind: 'gate', height: 1.5, width: 0.08, profile: 'box', span: 2.5, note: 'closed gate leaf standing on the ground; a node spans a drive' },
  { kind: 'lift_gate', height: 1, width: 0.1, profile: 'box', span: 3.5, note: 'boom drawn down to the ground (nothing floats); a node spans a lane' },
  { kind: 'embankment', height: 2, width: 0.5, profile: 'box', note: 'man_made=embankment with wall=* or a masonry material: a retaining face' },
  { kind: 'dyke', height: 2, width: 6, profile: 'trapezoid', note: 'earth dyke, 1:1.5 sides' },
];

/** The table row for a kind and material (a kind always has a row without materials). */
export function barrierDefault(kind: BarrierKind, material: string | undefined): BarrierDefault {
  for (const row of BARRIER_DEFAULTS) {
    if (row.kind !== kind) continue;
    if (!row.materials || (material !== undefined && row.materials.includes(material))) return row;
  }
  throw new Error(`no barrier default for ${kind}`);
}
