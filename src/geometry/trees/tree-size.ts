import type { TaggedTreeSize } from './tags/size.ts';

/**
 * A tree's height and crown diameter (metres) from what is tagged, first usable evidence wins:
 * `height` and `diameter_crown` as tagged; a missing one from the other by the leaf type's
 * crown-to-height ratio; without either, from the trunk `circumference` by allometry
 * (diameter at breast height D in cm: height = 1.3 + 2·D^0.57, crown = a + b·D — fits of the
 * urban-tree tables of McPherson et al. 2016, rounded); else the leaf type's default.
 */
export interface TreeSize {
  height: number;
  crownDiameter: number;
  heightSource: 'height' | 'diameter_crown' | 'circumference' | 'default';
}

interface LeafAllometry {
  /** Default height and crown, metres. */
  height: number;
  crown: number;
  /** Crown diameter / height. */
  ratio: number;
  /** crown = a + b · D(cm). */
  a: number;
  b: number;
}

/** Per leaf type (unknown = broadleaved: most mapped street trees are). Documented in docs/trees.md. */
export const LEAF_ALLOMETRY: Readonly<Record<string, LeafAllometry>> = {
  broadleaved: { height: 10, crown: 6, ratio: 0.6, a: 0.6, b: 0.18 },
  needleleaved: { height: 14, crown: 5, ratio: 0.35, a: 0.5, b: 0.11 },
  mixed: { height: 12, crown: 5.5, ratio: 0.5, a: 0.55, b: 0.15 },
  palm: { height: 8, crown: 5, ratio: 0.6, a: 3, b: 0.05 },
  leafless: { height: 4, crown: 2, ratio: 0.5, a: 0.5, b: 0.05 },
};

export function allometryFor(leafType: string | undefined): LeafAllometry {
  return LEAF_ALLOMETRY[leafType ?? ''] ?? LEAF_ALLOMETRY.broadleaved;
}

export function treeSize(tagged: TaggedTreeSize, leafType?: string): TreeSize {
  const k = allometryFor(leafType);
  const round = (v: number) => Math.round(v * 100) / 100;
  if (tagged.height !== null) {
    return { height: round(tagged.height), crownDiameter: round(tagged.crownDiameter ?? tagged.height * k.ratio), heightSource: 'height' };
  }
  if (tagged.crownDiameter !== null) {
    return { height: round(tagged.crownDiameter / k.ratio), crownDiameter: round(tagged.crownDiameter), heightSource: 'diameter_crown' };
  }
  if (tagged.circumference !== null) {
    const dbhCm = (tagged.circumference / Math.PI) * 100;
    const height = leafType === 'palm' ? k.height : 1.3 + 2 * dbhCm ** 0.57;
    return { height: round(height), crownDiameter: round(k.a + k.b * dbhCm), heightSource: 'circumference' };
  }
  return { height: k.height, crownDiameter: k.crown, heightSource: 'default' };
}
