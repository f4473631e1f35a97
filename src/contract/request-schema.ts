/**
 * The request body of POST /v1/context as ONE zod schema: every field of the spec's request,
 * Settings and Export tables with allowed values and defaults, and the normalisation to
 * `ContextRequest` (src/contract/types.ts). The OpenAPI document is generated from these schemas.
 *
 * Tolerant reader (docs/design.md "Contract decisions"):
 * - unknown fields anywhere are dropped (zod objects strip);
 * - an explicit `null` for an optional field means "not given";
 * - enumerations match exactly, except `crs`: any letter case of "local" is read as `local`;
 * - a group's alias ≡ its name (`infrastructure` ≡ `instances`); the name the caller used first is kept in `groupNames`;
 * - `topographyModel: true` ≡ `topography` in `geometry` (and the other way round);
 * - repeated geometry groups and surface types are dropped, keeping the caller's order.
 *
 * The polygon and origin are checked by the pure rules in polygon-rules.ts (they give the
 * polygon-specific error codes); their rule violations travel as zod issues carrying
 * `params.apiCode`, which parse-request.ts turns into the ApiError code.
 */

import { z } from 'zod';
import type { ErrorCode } from './errors.ts';
import { MAX_AREA_KM2, MAX_ERROR_DETAILS, MAX_POLYGON_POINTS, MIN_POLYGON_POINTS, SETTING_BOUNDS } from './limits.ts';
import { ringAreaKm2 } from './polygon-measures.ts';
import { checkLatLon, checkOriginNear, checkPolygon, type RuleViolation } from './polygon-rules.ts';
import { canonicalGroup, defaultGroups, groupSpec, requestGroupNames, type GeometryGroup } from './groups.ts';
import { EXPORT_FORMATS, ROOF_TYPES, type ContextRequest, type ExportRequest, type Settings } from './types.ts';

/** Extra data on a zod issue raised by a contract rule. */
export interface RuleIssueParams {
  apiCode: ErrorCode;
  /** The one-sentence summary of the whole violation (issue messages are per detail). */
  summary: string;
  /** Further detail fields (e.g. areaKm2), copied into the error detail. */
  extra: Record<string, unknown>;
}

const nullAsMissing = (value: unknown): unknown => (value === null ? undefined : value);

/** An optional field: `null` or absent gives `fallback`. */
function optional<T extends z.ZodType>(schema: T, fallback: z.util.NoUndefined<z.output<T>>) {
  return z.preprocess(nullAsMissing, schema.default(fallback));
}

/**
 * An optional list of names (`null` or absent gives `fallback`). A list is cut just after its
 * MAX_ERROR_DETAILS-th unknown name before zod looks at it, so a body with a million bad entries
 * costs one quick pass and yields a handful of issues; long valid lists still pass.
 */
function optionalNames<const T extends readonly [string, ...string[]]>(names: T, fallback: T[number][], minItems = 0) {
  const known = new Set<unknown>(names);
  const cut = (value: unknown): unknown => {
    if (!Array.isArray(value)) return nullAsMissing(value);
    let bad = 0;
    for (let k = 0; k < value.length; k++) {
      if (!known.has(value[k]) && ++bad >= MAX_ERROR_DETAILS) return value.slice(0, k + 1);
    }
    return value;
  };
  return z.preprocess(cut, z.array(z.enum(names)).min(minItems).default(fallback));
}

/**
 * One requested group name: any name or alias of the group table (groups.ts), read when the body
 * is parsed, because a registered family may add names after this module loaded. An unknown name
 * gives the same issue an enumeration would. The OpenAPI document lists the names (openapi.ts).
 */
export const GroupNameSchema = z
  .any()
  .superRefine((value, ctx) => {
    const names = requestGroupNames();
    if (!names.includes(value)) ctx.addIssue({ code: 'invalid_value', values: names, input: value });
  })
  .transform((value) => value as string);

/** `geometry`: like optionalNames over the group table as it is when the body is parsed; absent gives the default groups. */
function optionalGroupNames() {
  const cut = (value: unknown): unknown => {
    if (!Array.isArray(value)) return nullAsMissing(value);
    const known = new Set<unknown>(requestGroupNames());
    let bad = 0;
    for (let k = 0; k < value.length; k++) {
      if (!known.has(value[k]) && ++bad >= MAX_ERROR_DETAILS) return value.slice(0, k + 1);
    }
    return value;
  };
  return z.preprocess(cut, z.array(GroupNameSchema).optional()).transform((names) => names ?? defaultGroups());
}

/** Copies a rule violation onto the zod context, one issue per detail, paths relative to the field. */
function reportViolation(ctx: z.RefinementCtx, violation: RuleViolation, base: (string | number)[]): void {
  for (const { path = base, message, ...extra } of violation.details) {
    const params: RuleIssueParams = { apiCode: violation.code, summary: violation.message, extra };
    ctx.addIssue({ code: 'custom', message, path: path.slice(base.length), params, input: undefined });
  }
}

// ---- coordinates ------------------------------------------------------------------------------

export const LatitudeSchema = z.number().min(-90).max(90).describe('Latitude in degrees (WGS84).');
export const LongitudeSchema = z.number().min(-180).max(180).describe('Longitude in degrees (WGS84).');
export const LatLonSchema = z.tuple([LatitudeSchema, LongitudeSchema]).describe('A [latitude, longitude] pair: exactly two finite numbers, latitude first.');

const PolygonShapeSchema = z
  .array(LatLonSchema)
  .min(MIN_POLYGON_POINTS)
  .max(MAX_POLYGON_POINTS)
  .describe(
    `Closed ring of [latitude, longitude] pairs: at least ${MIN_POLYGON_POINTS} and at most ${MAX_POLYGON_POINTS} points, ` +
      'the last identical to the first, not intersecting or touching itself, not crossing the antimeridian, ' +
      `enclosing at most ${MAX_AREA_KM2} km² (geodesic area). Edges are straight in longitude/latitude, as in GeoJSON.`,
  );

/** `polygon`: the ordered polygon rules first (polygon-specific codes), then the typed shape. */
export const PolygonSchema = z.preprocess((value, ctx) => {
  const verdict = checkPolygon(value, []);
  if (!verdict.ok) reportViolation(ctx, verdict.violation, []);
  return value;
}, PolygonShapeSchema);

/** `origin`: optional; any problem is invalid_coordinate. */
export const OriginSchema = z.preprocess((value, ctx) => {
  if (value === null || value === undefined) return undefined;
  const violation = checkLatLon(value, [], 'origin');
  if (violation) reportViolation(ctx, violation, []);
  return value;
}, LatLonSchema.optional().describe('Origin of the local coordinate frame as [latitude, longitude]. Default: the first polygon vertex.'));

// ---- settings ---------------------------------------------------------------------------------

export const SURFACE_TYPES = ['meshes', 'centerlines', 'outlines'] as const;
export const OUTPUT_CRS = ['local', 'EPSG:3857', 'UTM'] as const;

/** Any letter case of "local" reads as `local`; other values pass unchanged (exact match). */
const normaliseLocal = (value: unknown): unknown => (typeof value === 'string' && value.toLowerCase() === 'local' ? 'local' : nullAsMissing(value));

/** `settings.geometry` (its OpenAPI default is the group table's defaults as they are, openapi.ts). */
export const GeometrySettingSchema = optionalGroupNames().describe(
  'Geometry groups to generate. `infrastructure` is another name for `instances` (the response uses the name given). ' +
    '`topography` is not included by default. Repeats are ignored; an empty list builds no groups (unless topographyModel is true).',
);

const { defaultLevels, defaultLevelHeight, canopyMinHeight, canopyMinSpacing, canopyMaxTrees } = SETTING_BOUNDS;

const SettingsFieldsSchema = z.object({
  geometry: GeometrySettingSchema,
  surfaceTypes: optionalNames(SURFACE_TYPES, ['meshes'], 1).describe(
    'Representations of ground surfaces: `meshes` gives the `surface` group, `centerlines`/`outlines` give draped polylines in `surfaceLines`. At least one.',
  ),
  cropScene: optional(z.boolean(), false).describe('Slice the model exactly along the polygon boundary (adds processing time).'),
  defaultRoofType: optional(z.enum(ROOF_TYPES), 'flat').describe('Roof type used when the real roof shape is unknown.'),
  defaultLevels: optional(z.number().gt(defaultLevels.exclusiveMin).max(defaultLevels.max), 1).describe(
    `Levels assumed when a building has no height data: greater than 0, at most ${defaultLevels.max}; fractions allowed.`,
  ),
  defaultLevelHeight: optional(z.number().gt(defaultLevelHeight.exclusiveMin).max(defaultLevelHeight.max), 4).describe(
    `Height of one level in metres, used to estimate building height: greater than 0, at most ${defaultLevelHeight.max}.`,
  ),
  buildingSources: optional(z.enum(['all', 'global']), 'all').describe(
    '`all`: the best building data available to the account; `global`: worldwide base data only.',
  ),
  treeSource: optional(z.enum(['standard', 'hybrid', 'canopy']), 'standard').describe(
    '`standard`: surveyed points plus procedural forest fill; `hybrid`: plus trees detected from a 1-metre canopy model; `canopy`: canopy-detected trees only.',
  ),
  canopyMinHeight: optional(z.number().min(canopyMinHeight.min).max(canopyMinHeight.max), 3).describe(
    `Shortest canopy counted as a tree, metres (${canopyMinHeight.min}–${canopyMinHeight.max}). Hybrid and canopy only.`,
  ),
  canopyMinSpacing: optional(z.number().min(canopyMinSpacing.min).max(canopyMinSpacing.max), 3).describe(
    `Minimum tree-to-tree spacing for canopy detection, metres (${canopyMinSpacing.min}–${canopyMinSpacing.max}).`,
  ),
  canopyMaxTrees: optional(z.number().int().min(canopyMaxTrees.min).max(canopyMaxTrees.max), canopyMaxTrees.max).describe(
    `Cap on the number of detected trees: a whole number from ${canopyMaxTrees.min} to ${canopyMaxTrees.max} (the hard cap).`,
  ),
  topographyModel: optional(z.boolean(), false).describe('Include the terrain model; the same as adding `topography` to `geometry`.'),
  topographyReturnType: optional(z.enum(['meshes', 'elevationMap', 'both']), 'elevationMap').describe(
    'How terrain is returned. Elevation maps are about 94% smaller than meshes.',
  ),
  combineElevationMaps: optional(z.boolean(), true).describe('Merge per-tile elevation maps into one grid covering the whole site.'),
  projectToTopography: optional(z.boolean(), false).describe(
    'Project buildings, barriers and surfaces onto real terrain elevations without returning terrain geometry.',
  ),
  disableSurfaceProjection: optional(z.boolean(), false).describe('Keep surface geometry flat instead of draping it onto terrain (subject to change).'),
  crs: z
    .preprocess(normaliseLocal, z.enum(OUTPUT_CRS).default('local'))
    .describe('Coordinate reference system of returned coordinates. `local` (any letter case accepted) is metres around the origin.'),
  upAxis: optional(z.enum(['Y', 'Z']), 'Y').describe('Axis that represents "up" in returned geometry.'),
  indexedMeshes: optional(z.boolean(), false).describe('Weld vertices and add an `indices` array to every mesh (JSON responses only).'),
});

/** Folds aliases into their groups (`infrastructure` into `instances`) and `topographyModel` into `geometry`, dropping repeats. */
function normaliseSettings(fields: z.output<typeof SettingsFieldsSchema>): Settings {
  const geometry: GeometryGroup[] = [];
  const groupNames: Settings['groupNames'] = {};
  for (const name of fields.geometry) {
    const group = canonicalGroup(name)!;
    if (groupSpec(group)?.aliases?.length) groupNames[group] ??= name;
    if (!geometry.includes(group)) geometry.push(group);
  }
  if (fields.topographyModel && !geometry.includes('topography')) geometry.push('topography');
  return {
    ...fields,
    geometry,
    groupNames,
    surfaceTypes: [...new Set(fields.surfaceTypes)],
    topographyModel: geometry.includes('topography'),
  };
}

export const SettingsSchema = SettingsFieldsSchema.transform(normaliseSettings).describe(
  'Generation settings; every field is optional and `null` means "use the default".',
);

// ---- export -----------------------------------------------------------------------------------

/** `local` (any case) or `EPSG:<digits>` (any case of the prefix), normalised to `local` / `EPSG:<n>`. */
const normaliseExportCrs = (value: unknown): unknown => {
  if (typeof value !== 'string') return nullAsMissing(value);
  if (value.toLowerCase() === 'local') return 'local';
  const epsg = /^epsg:0*([1-9]\d{0,5})$/i.exec(value); // leading zeros dropped
  return epsg ? `EPSG:${Number(epsg[1])}` : value;
};

const EXPORT_CRS_PATTERN = /^(local|EPSG:[1-9][0-9]{0,5})$/;

export const ExportSchema = z
  .object({
    format: z.enum(EXPORT_FORMATS).describe('Target file format. Which formats this installation honours is reported by a 422 format_unavailable.'),
    crs: z
      .preprocess(
        normaliseExportCrs,
        z.string().regex(EXPORT_CRS_PATTERN, { error: 'export.crs must be "local" or an EPSG code such as "EPSG:32632".' }).default('local'),
      )
      .describe(
        'Coordinate system of the file: `local` or a projected EPSG code `EPSG:<n>` in metres or feet (prefix in any letter case). ' +
          'An EPSG code requires settings.crs to be `local`.',
      ),
    placement: optional(z.enum(['anchor', 'absolute']), 'anchor').describe(
      "`anchor`: origin-relative coordinates with the format's georeference anchor; `absolute`: real grid coordinates baked into the file.",
    ),
    units: optional(z.enum(['m', 'mm', 'ft', 'in']), 'm').describe('Model units of the file; ignored for formats with fixed units.'),
    surfaceType: optional(z.enum(SURFACE_TYPES), 'meshes').describe('Deliver ground surfaces as meshes or as centerline/outline curves.'),
  })
  .describe('When present, the response is an export response with a download URL.');

// ---- the body ---------------------------------------------------------------------------------

const BodyFieldsSchema = z
  .object({
    polygon: PolygonSchema,
    origin: OriginSchema,
    settings: z.preprocess(nullAsMissing, SettingsSchema.prefault({})),
    export: z.preprocess(nullAsMissing, ExportSchema.optional()),
  })
  .superRefine((body, ctx) => {
    const far = body.origin ? checkOriginNear([body.origin[0], body.origin[1]], body.polygon, ['origin']) : null;
    if (far) reportViolation(ctx, far, []);
    if (body.export && body.export.crs !== 'local' && body.settings.crs !== 'local') {
      const params: RuleIssueParams = {
        apiCode: 'invalid_setting',
        summary: `export.crs ${body.export.crs} requires settings.crs to be "local", not "${body.settings.crs}".`,
        extra: {},
      };
      ctx.addIssue({ code: 'custom', message: params.summary, path: ['export', 'crs'], params, input: undefined });
    }
  });

function toContextRequest(body: z.output<typeof BodyFieldsSchema>): ContextRequest {
  const polygon = body.polygon.map(([lat, lon]): [number, number] => [lat, lon]);
  const request: ContextRequest = {
    polygon,
    origin: body.origin ? [body.origin[0], body.origin[1]] : [polygon[0][0], polygon[0][1]],
    settings: body.settings,
    areaKm2: ringAreaKm2(polygon),
  };
  if (body.export) request.export = body.export satisfies ExportRequest;
  return request;
}

/**
 * The whole request body: parses to the normalised `ContextRequest`. Use `parseContextRequest`
 * (parse-request.ts) to get ApiErrors instead of zod issues.
 */
export const RequestBodySchema = BodyFieldsSchema.transform(toContextRequest).describe(
  'Request body of POST /v1/context. Unknown fields are ignored; `null` for an optional field means "not given".',
);

export type RequestBodyInput = z.input<typeof RequestBodySchema>;
