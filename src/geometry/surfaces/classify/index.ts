/**
 * What a mapped area of ground *is* (docs/ground.md "Kinds"): OSM area tags → surface kind,
 * priority and the tags that decided it, kept apart from how the ground becomes triangles. The
 * table is AREA_RULES in rules.ts (also as markdown: `surfaceAreaTableMarkdown()`); one parser per
 * file.
 */
export { classifySurfaceArea } from './classify-area.ts';
export type { SurfaceAreaClass } from './classify-area.ts';
export { surfaceAreasFromFeatures, SURFACE_AREA_LAYERS, MIN_FOOTPRINT_AREA } from './from-features.ts';
export { AREA_RULES, AREA_RULE_KEYS, rulePriority, surfaceAreaTableMarkdown, surfacePolicyLegend } from './rules.ts';
export type { AreaRule } from './rules.ts';
export { notGroundReason } from './placement.ts';
export { parseSurfaceMaterial, surfaceValuesOf } from './surface-material.ts';
export type { SurfaceMaterial } from './surface-material.ts';
export { applySurfacePolicy, describeSurfacePolicy } from './surface-policy.ts';
export type { SurfacePolicy } from './surface-policy.ts';
