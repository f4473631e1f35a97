/**
 * Areas that get procedural trees (treeSource standard) and how densely: docs/trees.md
 * "Trees". Free fill plants a share `keep` of the hard-core process of forest-fill.ts (≈ 380
 * survivors per ha), so density ≈ keep × 380 per ha; orchards plant `keep` of a 6 m grid's centres.
 */
export type FillKind = 'forest' | 'scrub' | 'park' | 'orchard';

export interface FillRule {
  kind: FillKind;
  /** Share of the surviving candidates (rows: of the grid centres) that hold a plant (0..1). */
  keep: number;
  /** Node type planted. */
  plant: 'tree' | 'shrubbery';
  /** Plants at the cell centres (rows) instead of jittered. */
  rows: boolean;
}

/** Forest density by `leaf_type`: conifer stands are denser than broadleaved ones. */
const FOREST_KEEP: Readonly<Record<string, number>> = { needleleaved: 0.74, mixed: 0.66, broadleaved: 0.58 };

/** The fill rule of an area's tags, or null when it gets no procedural trees. */
export function fillRuleOf(tags: Readonly<Record<string, string>>): FillRule | null {
  if (tags.landuse === 'forest' || tags.natural === 'wood') {
    return { kind: 'forest', keep: FOREST_KEEP[tags.leaf_type ?? ''] ?? 0.62, plant: 'tree', rows: false };
  }
  if (tags.natural === 'scrub') return { kind: 'scrub', keep: 0.45, plant: 'shrubbery', rows: false };
  if (tags.landuse === 'orchard') return { kind: 'orchard', keep: 1, plant: 'tree', rows: true };
  if (tags.leisure === 'park' && hasTreeHint(tags)) return { kind: 'park', keep: 0.105, plant: 'tree', rows: false };
  return null;
}

/** A park says it has trees: `trees=*`, `wood=*`, `leaf_type=*` or `landcover=trees`. */
function hasTreeHint(tags: Readonly<Record<string, string>>): boolean {
  const set = (v: string | undefined) => v !== undefined && v !== 'no' && v !== 'none';
  return set(tags.trees) || set(tags.wood) || set(tags.leaf_type) || tags.landcover === 'trees';
}
