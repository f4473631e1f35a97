import type { ContextRequest } from '../../contract/types.ts';
import type { TileTask } from '../../plan/plan-request.ts';
import type { CanopySourceConfig } from '../../sources/canopy/config.ts';

/** Where a request's trees come from (SPEC `treeSource` and the canopy settings), as a tile task carries it. */
export interface TreePlan {
  source: 'standard' | 'hybrid' | 'canopy';
  /** `canopyMinHeight`, `canopyMinSpacing`, metres. */
  minHeight: number;
  minSpacing: number;
  /** CITY_CANOPY_SOURCES; null = none configured. */
  canopy: CanopySourceConfig[] | null;
}

/** A tile task with its tree plan (set by the pipeline; absent = standard). */
type TreeTask = TileTask & { trees?: TreePlan };

const STANDARD: TreePlan = { source: 'standard', minHeight: 3, minSpacing: 3, canopy: null };

/** Gives every task of a request the request's tree plan (main thread, before the tasks go to the workers). */
export function attachTreePlan(tasks: readonly TileTask[], settings: ContextRequest['settings'], canopy: CanopySourceConfig[] | null | undefined): void {
  const plan: TreePlan = { source: settings.treeSource, minHeight: settings.canopyMinHeight, minSpacing: settings.canopyMinSpacing, canopy: canopy ?? null };
  for (const task of tasks) (task as TreeTask).trees = plan;
}

/** The tree plan of a task (in a worker). */
export function treePlanOf(task: TileTask): TreePlan {
  return (task as TreeTask).trees ?? STANDARD;
}
