/**
 * The one table of geometry groups. Every list of group names derives from it: the names a
 * request may ask for (and their aliases), the default request, the response's group types and
 * geometry types, what an export file holds and in which order, and what a tile builds.
 *
 * The five groups of the spec are written here. A feature family that adds a group beyond them
 * brings its own `GroupSpec` and registers it with one line (src/features/index.ts), which calls
 * `registerGroup`; nothing else in the contract, the pipeline or the export writers names groups.
 * Lookups therefore read the table when they run, never a list copied at import time.
 */

/** Which array of the response holds a group's items. */
export type GeometryType = 'meshes' | 'nodes' | 'polylines' | 'elevationMaps';

/** One group of the response that a requested group may give. */
export interface OutputSpec {
  /** The key tiles, sinks and exports know it by; unique over the whole table. */
  key: string;
  /** The response's `type` (default: the requested group's name as the caller spelled it). */
  type?: string;
  geometryType: GeometryType;
  /** The group an export file puts it in; absent = not exported (elevation maps: exports take terrain as meshes). */
  exportGroup?: string;
}

export interface GroupSpec {
  /** The canonical name a request asks for. */
  name: string;
  /** Other names a request may use; the response names the group the way the caller asked. */
  aliases?: readonly string[];
  /** Built when `geometry` is not given. */
  byDefault: boolean;
  /** The response groups it may give (which ones a request gets is the family's choice). */
  outputs: readonly OutputSpec[];
}

const SPEC_GROUPS = [
  { name: 'buildings', byDefault: true, outputs: [{ key: 'buildings', geometryType: 'meshes', exportGroup: 'buildings' }] },
  {
    name: 'surface',
    byDefault: true,
    outputs: [
      { key: 'surface', geometryType: 'meshes', exportGroup: 'surface' },
      { key: 'surfaceLines', type: 'surfaceLines', geometryType: 'polylines', exportGroup: 'surfaceLines' },
    ],
  },
  { name: 'barriers', byDefault: true, outputs: [{ key: 'barriers', geometryType: 'meshes', exportGroup: 'barriers' }] },
  { name: 'instances', aliases: ['infrastructure'], byDefault: true, outputs: [{ key: 'instances', geometryType: 'nodes', exportGroup: 'instances' }] },
  {
    name: 'topography',
    byDefault: false,
    outputs: [
      { key: 'topography:maps', type: 'topography', geometryType: 'elevationMaps' },
      { key: 'topography:meshes', type: 'topography', geometryType: 'meshes', exportGroup: 'topography' },
    ],
  },
] as const satisfies readonly GroupSpec[];

/** A group of the spec. */
export type SpecGroup = (typeof SPEC_GROUPS)[number]['name'];
/** A canonical group name: one of the spec's, or one a registered family added. */
export type GeometryGroup = SpecGroup | (string & {});

const table: GroupSpec[] = [...SPEC_GROUPS];

/** Adds a group beyond the spec (a family's registration does this); a name, alias or key may not be taken twice. */
export function registerGroup(spec: GroupSpec): void {
  const taken = new Set(table.flatMap((g) => [g.name, ...(g.aliases ?? [])]));
  const keys = new Set(table.flatMap((g) => g.outputs.map((o) => o.key)));
  const existing = table.find((g) => g.name === spec.name);
  if (existing === spec) return;
  for (const n of [spec.name, ...(spec.aliases ?? [])]) if (taken.has(n)) throw new Error(`geometry group name "${n}" is taken`);
  for (const o of spec.outputs) if (keys.has(o.key)) throw new Error(`output group key "${o.key}" is taken`);
  table.push(spec);
}

/** Every group, the spec's first, then registered ones in the order they came. */
export function groupSpecs(): readonly GroupSpec[] {
  return table;
}

export function groupSpec(name: string): GroupSpec | undefined {
  return table.find((g) => g.name === name);
}

/** Every name a request's `geometry` may hold: canonical names and aliases. */
export function requestGroupNames(): string[] {
  return table.flatMap((g) => [g.name, ...(g.aliases ?? [])]);
}

/** The canonical group of a requested name or alias. */
export function canonicalGroup(name: string): GeometryGroup | undefined {
  return table.find((g) => g.name === name || g.aliases?.includes(name))?.name;
}

/** `geometry` when the request does not give it. */
export function defaultGroups(): GeometryGroup[] {
  return table.filter((g) => g.byDefault).map((g) => g.name);
}

/** Every `type` a response group may have (a group's name, its aliases and its outputs' own types). */
export function responseGroupTypes(): string[] {
  const types = new Set<string>();
  for (const g of table) {
    for (const n of [g.name, ...(g.aliases ?? [])]) types.add(n);
    for (const o of g.outputs) if (o.type) types.add(o.type);
  }
  return [...types];
}

/**
 * Every output the export files can hold, in the order writers list their groups: the table's
 * order, with linework (polylines) after every mesh and node group, so a file lists the model
 * first and the lines drawn over it last.
 */
export function exportedOutputs(): (OutputSpec & { exportGroup: string })[] {
  const out: (OutputSpec & { exportGroup: string })[] = [];
  for (const g of table) for (const o of g.outputs) if (o.exportGroup) out.push(o as OutputSpec & { exportGroup: string });
  return [...out.filter((o) => o.geometryType !== 'polylines'), ...out.filter((o) => o.geometryType === 'polylines')];
}
