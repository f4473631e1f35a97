import { NOMINAL_HEIGHT, scaleFor } from '../../geometry/instances/catalogue.ts';
import { objectHeight } from '../../geometry/instances/tags/height.ts';
import type { InstanceNode, NodeType } from '../../geometry/instances/types.ts';
import { parseTreeKind, type TreeKind } from '../../geometry/trees/tags/leaf.ts';
import { parseTreeSize } from '../../geometry/trees/tags/size.ts';
import { treeSize, type TreeSize } from '../../geometry/trees/tree-size.ts';

/** Shrubs: default height and spread, metres. */
export const SHRUB_SIZE = { height: 2, crown: 2.5 };

/** Descriptor fields and scale of a surveyed tree or shrub from its tags. */
export function vegetation(type: 'tree' | 'shrubbery', tags: Readonly<Record<string, string>>): { scale: number; fields: Record<string, unknown> } {
  const kind = parseTreeKind(tags);
  if (type === 'shrubbery') {
    const h = objectHeight(tags);
    const size: TreeSize =
      h !== null
        ? { height: h, crownDiameter: Math.max(h, 0.5) * 1.25, heightSource: 'height' }
        : { height: SHRUB_SIZE.height, crownDiameter: SHRUB_SIZE.crown, heightSource: 'default' };
    return { scale: scaleFor('shrubbery', size.height), fields: sizeFields(size, kind) };
  }
  const size = treeSize(parseTreeSize(tags), kind.leafType);
  return { scale: size.height / NOMINAL_HEIGHT.tree, fields: sizeFields(size, kind) };
}

export function sizeFields(size: TreeSize, kind: TreeKind): Record<string, unknown> {
  return { height: round(size.height), crownDiameter: round(size.crownDiameter), heightSource: size.heightSource, ...kind };
}

export function round(v: number): number {
  return Math.round(v * 100) / 100;
}

export function isVegetation(type: NodeType): type is 'tree' | 'shrubbery' {
  return type === 'tree' || type === 'shrubbery';
}

export type { InstanceNode };
