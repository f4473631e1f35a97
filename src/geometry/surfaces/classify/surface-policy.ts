/**
 * How `surface=*` may change the kind an area rule gives. An area tag says either what the ground
 * *is* (`natural=wood`, `leisure=pitch`: the surface tag cannot change that) or what the place is
 * *for* (`leisure=park`, `place=square`, `landuse=retail`: then the surface tag says what it looks
 * like). One policy per rule, chosen in rules.ts.
 */
import type { SurfaceKind } from '../types.ts';
import type { SurfaceMaterial } from './surface-material.ts';

export type SurfacePolicy =
  /** The rule's kind stands whatever `surface=*` says (natural cover, water, pitches, helipads). */
  | 'fixed'
  /** Traffic areas (roads, car parks, platforms) keep their kind unless they are grass or sand. */
  | 'traffic'
  /** A use, not a material: any hard surface is `pavement`, pebbles/rock `rock`, grass and sand their own. */
  | 'use'
  /** Beaches: sand unless the tag says pebbles, gravel or rock (`rock`), or paving (`pavement`). */
  | 'beach';

const TRAFFIC: Partial<Record<SurfaceMaterial, SurfaceKind>> = { grass: 'grass', sand: 'sand' };
const USE: Partial<Record<SurfaceMaterial, SurfaceKind>> = {
  asphalt: 'pavement',
  paved: 'pavement',
  gravel: 'pavement',
  rock: 'rock',
  grass: 'grass',
  sand: 'sand',
};
const BEACH: Partial<Record<SurfaceMaterial, SurfaceKind>> = {
  asphalt: 'pavement',
  paved: 'pavement',
  gravel: 'rock',
  rock: 'rock',
  grass: 'grass',
  sand: 'sand',
};

/** Kinds that already are grass of some sort: `surface=grass` on them keeps the finer kind. */
const GRASS_LIKE = new Set<SurfaceKind>(['grass', 'manicuredGrass', 'garden']);

/**
 * The kind an area of the rule's `kind` has when its surface is `material` under `policy`;
 * `kind` itself when the surface does not change it.
 */
export function applySurfacePolicy(policy: SurfacePolicy, kind: SurfaceKind, material: SurfaceMaterial | null): SurfaceKind {
  if (material === null || policy === 'fixed') return kind;
  const table = policy === 'traffic' ? TRAFFIC : policy === 'use' ? USE : BEACH;
  const next = table[material];
  if (next === undefined) return kind;
  if (next === 'grass' && GRASS_LIKE.has(kind)) return kind;
  return next;
}

/** One line per policy for the documentation table: material → kind. */
export function describeSurfacePolicy(policy: SurfacePolicy): string {
  if (policy === 'fixed') return 'ignored';
  const table = policy === 'traffic' ? TRAFFIC : policy === 'use' ? USE : BEACH;
  return Object.entries(table)
    .map(([m, k]) => `${m}→${k}`)
    .join(', ');
}
