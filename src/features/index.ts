import { groupSpec, registerGroup, type GeometryGroup, type OutputSpec } from '../contract/groups.ts';
import type { ContextRequest, Settings } from '../contract/types.ts';
import { planRequest, type PlanOptions, type RequestPlan } from '../plan/plan-request.ts';
import type { FamilyCollector, FamilySources, FeatureFamily } from './family.ts';
import { buildingsFamily } from './buildings/index.ts';
import { surfacesFamily } from './surfaces/index.ts';
import { barriersFamily } from './barriers/index.ts';
import { instancesFamily } from './instances/index.ts';
import { terrainFamily } from './terrain/index.ts';

const registered: FeatureFamily[] = [];

/** The feature families a tile builds, in the order they run and were registered. */
export const FAMILIES: readonly FeatureFamily[] = registered;

/**
 * Registers a family: its tiles run after those registered before it, and a family that brings a
 * group of its own adds it to the contract's group table (src/contract/groups.ts). Every process
 * that plans or builds tiles (the server and each tile worker) loads this module, so one line
 * below registers a family everywhere.
 */
export function registerFamily<P>(family: FeatureFamily<P>): FeatureFamily<P> {
  if (registered.some((f) => f.name === family.name)) throw new Error(`a feature family "${family.name}" is registered already`);
  if (typeof family.group !== 'string') registerGroup(family.group);
  registered.push(family as FeatureFamily);
  return family;
}

// One line a family; the ground runs after the buildings it is cut around.
registerFamily(buildingsFamily);
registerFamily(surfacesFamily);
registerFamily(barriersFamily);
registerFamily(instancesFamily);

/** Who builds what a group is: the terrain, or a family. */
type GroupBuilder = Pick<FeatureFamily, 'name' | 'group' | 'outputs'>;

const groupName = (b: GroupBuilder): GeometryGroup => (typeof b.group === 'string' ? b.group : b.group.name);

function builderOf(group: GeometryGroup): GroupBuilder | undefined {
  if (group === terrainFamily.group) return terrainFamily;
  return FAMILIES.find((f) => groupName(f) === group);
}

/** An output group of a response: its key, the `type` it is named by and its `geometryType`. */
export interface ResponseGroup extends OutputSpec {
  type: string;
}

/**
 * The response groups of a request, in the caller's order of groups: each group's outputs as its
 * family chooses them for these settings, named the way the caller asked (an alias is kept).
 */
export function responseGroups(settings: Settings): ResponseGroup[] {
  const out: ResponseGroup[] = [];
  for (const group of settings.geometry) {
    const builder = builderOf(group);
    if (!builder) continue; // a group whose family is not registered in this process builds nothing
    const outputs = builder.outputs?.(settings) ?? groupSpec(group)?.outputs ?? [];
    for (const o of outputs) out.push({ ...o, type: o.type ?? settings.groupNames[group] ?? group });
  }
  return out;
}

/**
 * The request without the groups the feature families build but `keep` (what is left when the OSM
 * data is missing: the terrain, and the buildings where premium data covers the polygon).
 */
export function withoutFamilyGroups(req: ContextRequest, keep: readonly GeometryGroup[] = []): ContextRequest {
  const geometry = req.settings.geometry.filter((g) => keep.includes(g) || !FAMILIES.some((f) => groupName(f) === g));
  return { ...req, settings: { ...req.settings, geometry } };
}

/** The families a request's tiles run. */
export function familiesFor(groups: readonly GeometryGroup[]): FeatureFamily[] {
  return FAMILIES.filter((f) => groups.includes(groupName(f)));
}

/** Each requested family's settings for the tile tasks, by family name. */
export function planFamilies(req: ContextRequest, sources: FamilySources): Record<string, unknown> {
  const plans: Record<string, unknown> = {};
  for (const f of familiesFor(req.settings.geometry)) if (f.plan) plans[f.name] = f.plan(req, sources);
  return plans;
}

/** Plans a request's tiles with every requested family's settings in each task. */
export function planTasks(req: ContextRequest, opts: Omit<PlanOptions, 'plans'>, sources: FamilySources = { canopy: null }): RequestPlan {
  return planRequest(req, { ...opts, plans: planFamilies(req, sources) });
}

/** The main-thread steps of a request's families (e.g. the tree cap). */
export function collectorsFor(req: ContextRequest, sources: FamilySources): FamilyCollector[] {
  return familiesFor(req.settings.geometry).flatMap((f) => (f.collect ? [f.collect(req, sources)] : []));
}
