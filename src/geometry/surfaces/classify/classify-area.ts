/**
 * What ground an OSM area is: the kind, its priority where areas overlap, and the tags that
 * decided it. The mapping itself is the table in rules.ts; this walks it.
 *
 *   classifySurfaceArea({ leisure: 'park' })
 *   // → { kind: 'manicuredGrass', priority: 44, decidedBy: { leisure: 'park' } }
 *   classifySurfaceArea({ place: 'square', surface: 'grass' })
 *   // → { kind: 'grass', priority: 40, decidedBy: { place: 'square', surface: 'grass' } }
 *   classifySurfaceArea({ amenity: 'parking', parking: 'underground' })   // → null (not ground)
 */
import type { SurfaceKind } from '../types.ts';
import { AREA_RULES, rulePriority, type AreaRule } from './rules.ts';
import { notGroundReason } from './placement.ts';
import { parseSurfaceMaterial } from './surface-material.ts';
import { applySurfacePolicy } from './surface-policy.ts';
import { isSet, valueItems } from '../../../osm-model/tag-values/items.ts';

export interface SurfaceAreaClass {
  kind: SurfaceKind;
  /** Where mapped areas overlap, the higher priority keeps the ground (surfaces/priority.ts). */
  priority: number;
  /** The source tags that decided the kind, exactly as tagged (`{ leisure: 'park' }`). */
  decidedBy: Record<string, string>;
}

type Tags = Readonly<Record<string, string>>;

function matches(rule: AreaRule, tags: Tags): boolean {
  if (rule.values === '*') return isSet(tags, rule.key);
  const values = rule.values;
  return valueItems(tags[rule.key]).some((v) => values.has(v));
}

/**
 * The ground kind of an OSM area from its tags, or null when it is no ground of ours: not in the
 * table, a building other than a building site, land enclosed by a coastline, or off the ground
 * (`notGroundReason`: tunnels, negative layers, roofs, bridges, basements). The first matching
 * row of AREA_RULES decides; see rules.ts for the table.
 */
export function classifySurfaceArea(tags: Record<string, string>): SurfaceAreaClass | null {
  if (notGroundReason(tags) !== null) return null;
  for (const rule of AREA_RULES) {
    if (!matches(rule, tags)) continue;
    if (rule.kind === null) return null;
    const decidedBy: Record<string, string> = { [rule.key]: tags[rule.key] };
    let kind = rule.kind;
    if (rule.refine) {
      const finer = valueItems(tags[rule.refine.key])
        .map((v) => rule.refine!.kinds[v])
        .find((k) => k !== undefined);
      if (finer) {
        kind = finer;
        decidedBy[rule.refine.key] = tags[rule.refine.key];
      }
    }
    const surfaced = applySurfacePolicy(rule.surface, kind, parseSurfaceMaterial(tags.surface));
    if (surfaced !== kind) {
      kind = surfaced;
      decidedBy.surface = tags.surface;
    }
    for (const key of rule.details) if (isSet(tags, key)) decidedBy[key] = tags[key];
    return { kind, priority: rulePriority(rule, kind), decidedBy };
  }
  return null;
}
