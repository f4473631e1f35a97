import { parseLength } from '../../../osm-model/tag-values/index.ts';

/** Sizes a tree has in OSM, metres: `height`, `diameter_crown`, trunk `circumference` (at 1.3 m). */
export interface TaggedTreeSize {
  height: number | null;
  crownDiameter: number | null;
  circumference: number | null;
}

/** Tallest trees are ~116 m, widest crowns ~60 m, thickest trunks ~30 m round; beyond is a typo. */
const LIMITS = { height: 120, crown: 60, circumference: 30 };

export function parseTreeSize(tags: Readonly<Record<string, string>>): TaggedTreeSize {
  const height = positive(parseLength(tags.height, LIMITS.height));
  const crownDiameter = positive(parseLength(tags.diameter_crown, LIMITS.crown));
  let circumference = parseLength(tags.circumference, 3000);
  // a bare number above the limit is almost always centimetres (`circumference=120`)
  if (circumference !== null && circumference > LIMITS.circumference && /^\s*\d+([.,]\d+)?\s*$/.test(tags.circumference ?? '')) circumference /= 100;
  return { height, crownDiameter, circumference: circumference !== null && circumference <= LIMITS.circumference ? positive(circumference) : null };
}

function positive(v: number | null): number | null {
  return v !== null && v > 0 ? v : null;
}
