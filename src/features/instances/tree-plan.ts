import type { ContextRequest } from '../../contract/types.ts';
import type { CanopySourceConfig } from '../../sources/canopy/config.ts';
import type { FamilySources } from '../family.ts';

/** Where a request's trees come from (docs/spec.md `treeSource` and the canopy settings), as a tile task carries it. */
export interface TreePlan {
  source: 'standard' | 'hybrid' | 'canopy';
  /** `canopyMinHeight`, `canopyMinSpacing`, metres. */
  minHeight: number;
  minSpacing: number;
  /** CITY_CANOPY_SOURCES; null = none configured. */
  canopy: CanopySourceConfig[] | null;
}

/** A task planned without the family's plan (e.g. in a test) gets surveyed trees and the procedural fill. */
export const STANDARD_TREES: TreePlan = { source: 'standard', minHeight: 3, minSpacing: 3, canopy: null };

/** The instances family's plan (main thread, before the tasks go to the workers). */
export function treePlan({ settings }: ContextRequest, sources: FamilySources): TreePlan {
  return { source: settings.treeSource, minHeight: settings.canopyMinHeight, minSpacing: settings.canopyMinSpacing, canopy: sources.canopy };
}
