/**
 * zod schemas of the responses (docs/spec.md "Geometry response", "Export response"; docs/design.md
 * "Contract decisions"). They document the API (openapi.ts) and let tests validate real responses;
 * the server does not parse its own output with them.
 *
 * Objects are open (extra fields pass) so that adding a field is never a breaking change; the
 * refinements (array lengths that must agree) are checked by `.parse` but do not appear in the
 * OpenAPI document.
 */

import { responseGroupTypes } from './groups.ts';
import { z } from 'zod';
import { ERROR_STATUS, type ErrorCode } from './errors.ts';
import { LatLonSchema, OUTPUT_CRS } from './request-schema.ts';

/** Free-form feature metadata; `type` names the kind of feature. */
export const DescriptorSchema = z
  .looseObject({
    type: z.string().describe('Kind of feature, e.g. `building`, a surface kind such as `asphalt`, or a node type such as `tree`.'),
    intersectsBoundary: z.boolean().optional().describe("The feature crosses the request polygon's boundary."),
    cropped: z.boolean().optional().describe('cropScene: the feature was cut along the polygon boundary (solids closed again with walls on the cut).'),
  })
  .describe('Feature metadata (type, dimensions, materials, data tier); further properties depend on the type.');

export const MeshSchema = z
  .object({
    vertices: z.array(z.number()).describe('Flat coordinate list, three numbers per vertex. Without `indices`: a triangle list (three vertices per triangle).'),
    indices: z.array(z.number().int().min(0)).optional().describe('Present when settings.indexedMeshes is true: three vertex indices per triangle.'),
    descriptor: DescriptorSchema,
  })
  .superRefine((mesh, ctx) => {
    if (mesh.vertices.length % 3 !== 0) {
      ctx.addIssue({ code: 'custom', message: 'vertices must hold three numbers per vertex', path: ['vertices'] });
    }
    const vertexCount = Math.floor(mesh.vertices.length / 3);
    if (mesh.indices === undefined) {
      if (vertexCount % 3 !== 0) ctx.addIssue({ code: 'custom', message: 'a triangle list needs three vertices per triangle', path: ['vertices'] });
    } else {
      if (mesh.indices.length % 3 !== 0) ctx.addIssue({ code: 'custom', message: 'indices must hold three per triangle', path: ['indices'] });
      if (mesh.indices.some((i) => i >= vertexCount)) ctx.addIssue({ code: 'custom', message: 'an index points past the last vertex', path: ['indices'] });
    }
  })
  .describe('A triangle mesh with its feature descriptor.');

export const ElevationMapInfoSchema = z.object({
  terrainSize: z.number().positive().describe('Side of the square grid, metres.'),
  segmentsCount: z.number().int().min(1).describe('Grid segments per side; the grid has (segmentsCount + 1)² vertices.'),
  moveVector: z
    .object({
      x: z.number().describe('Metres east of the frame origin.'),
      y: z.number().describe('Metres north of the frame origin.'),
    })
    .describe('Offset of the grid centre from the frame origin.'),
  width: z.number().positive().describe('Same as terrainSize (both spellings are in use).'),
  height: z.number().positive().describe('Same as terrainSize.'),
  segmentsWidth: z.number().int().min(1).describe('Same as segmentsCount.'),
  segmentsHeight: z.number().int().min(1).describe('Same as segmentsCount.'),
});

export const ElevationMapSchema = z
  .object({
    elevationMap: z
      .array(z.number())
      .describe('Heights in metres above sea level, (segmentsCount + 1)² values, row-major, first row northernmost, first column westernmost.'),
    info: ElevationMapInfoSchema,
    mask: z
      .array(z.union([z.literal(0), z.literal(1)]))
      .optional()
      .describe(
        'cropScene only: one value per height in the same order, 1 where the grid node lies inside the polygon, 0 outside (usable as a three.js vertex attribute).',
      ),
  })
  .superRefine((entry, ctx) => {
    const side = entry.info.segmentsCount + 1;
    if (entry.elevationMap.length !== side * side) {
      ctx.addIssue({ code: 'custom', message: `elevationMap must hold ${side * side} heights`, path: ['elevationMap'] });
    }
    if (entry.mask && entry.mask.length !== entry.elevationMap.length) {
      ctx.addIssue({ code: 'custom', message: 'mask must hold one value per height', path: ['mask'] });
    }
  })
  .describe('A square height grid; a three.js PlaneGeometry(terrainSize, terrainSize, n, n) rotated −90° about x lines up with it.');

export const NODE_TYPES = [
  'tree',
  'shrubbery',
  'bench',
  'picnicTable',
  'busStop',
  'utilityPole',
  'transmissionTower',
  'wire',
  'hydrant',
  'adColumn',
  'trackedCrane',
  'towerCrane',
  'windTurbine',
  'memorial',
  'statueSmall',
  'statueBig',
  'sculpture',
  'streetLamp',
  'wasteBasket',
  'postBox',
  'drinkingWater',
  'flagpole',
  'bicycleParking',
] as const;

export const NodeSchema = z
  .object({
    type: z.string().describe(`Instance type: ${NODE_TYPES.join(', ')} (more may be added).`),
    x: z.number(),
    y: z.number(),
    z: z.number(),
    rotation: z.number().describe('Radians, counter-clockwise about the up axis.'),
    scale: z.number().describe("Relative to the type's nominal size."),
    descriptor: DescriptorSchema.describe(
      'Trees carry `height` and `crownDiameter` in metres, and an `id` that is the same in every request: the OSM id, `fill/…` for procedural plants, `canopy/…` for detected trees (docs/trees.md "Ids").',
    ),
  })
  .describe('One placed instance (tree, bench, pole…), position in the output frame.');

/** Descriptor of a `surfaceLines` polyline (docs/design.md "Polylines"); open like every descriptor. */
export const PolylineDescriptorSchema = DescriptorSchema.extend({
  type: z
    .string()
    .describe('Surface kind of the ground the line belongs to, as for `surface` meshes (`asphalt`, `pavement`, `roadwayIntersection`, `water`, `grass`, …).'),
  kind: z
    .enum(['centerline', 'outline'])
    .describe(
      '`centerline`: the axis of a road or path (split where ways meet, clipped to the tiles the polygon touches). ' +
        "`outline`: one ring (outer or hole) of a surface piece, carrying that piece's descriptor.",
    ),
  id: z
    .string()
    .optional()
    .describe(
      'OSM id of the way or area (`way/123`, `relation/45`); `junction/<way ids joined by +>` (`#2`, `#3`… where the same ways meet again) ' +
        'for junctions and sidewalk corners; the coastline way ids joined by `;` for the sea. Absent on the inferred base ground (`inferred: true`).',
    ),
}).describe(
  'Polyline metadata: `type`, `kind`, `id`, and as known `highway`, `name`, `width` (metres), `bridge`, `layer`, `surface`, `lanes`, ' +
    '`sidewalk` (`left`|`right`|`corner`), `junction`, `ways`, `inferred`, `sea`, and the OSM tags that decided the kind.',
);

export const PolylineSchema = z
  .object({
    vertices: z
      .array(z.number())
      .describe(
        'Flat coordinate list, three numbers per point, in the output frame (crs, upAxis); draped on the terrain like the surface meshes. ' +
          'A closed line does not repeat its first point.',
      ),
    closed: z
      .boolean()
      .describe(
        'True when the last point joins the first: every outline, and the centerline of a closed way that meets no other way ' +
          '(a roundabout on its own) when it lies wholly in one tile.',
      ),
    descriptor: PolylineDescriptorSchema,
  })
  .superRefine((line, ctx) => {
    if (line.vertices.length % 3 !== 0 || line.vertices.length < 6) {
      ctx.addIssue({ code: 'custom', message: 'a polyline needs at least two points of three numbers', path: ['vertices'] });
    }
  })
  .describe('A draped line of the `surfaceLines` group: a road or path centerline, or the outline of a surface piece.');

/** A response group's `type`: read from the group table (groups.ts) when checked, as registered families may add types. */
export const GroupTypeSchema = z
  .any()
  .superRefine((value, ctx) => {
    const types = responseGroupTypes();
    if (!types.includes(value)) ctx.addIssue({ code: 'invalid_value', values: types, input: value });
  })
  .transform((value) => value as string)
  .describe('Group name; the alias when the request used one (`infrastructure` for instances).');
const GroupType = GroupTypeSchema;

export const GeometryGroupSchema = z
  .discriminatedUnion('geometryType', [
    z.object({ type: GroupType, geometryType: z.literal('meshes'), meshes: z.array(MeshSchema) }),
    z.object({ type: GroupType, geometryType: z.literal('elevationMaps'), elevationMaps: z.array(ElevationMapSchema) }),
    z.object({ type: GroupType, geometryType: z.literal('nodes'), nodes: z.array(NodeSchema) }),
    z.object({ type: GroupType, geometryType: z.literal('polylines'), polylines: z.array(PolylineSchema) }),
  ])
  .describe('One geometry group; `geometryType` names the array that holds the data.');

export const SpatialReferenceSchema = z
  .object({
    crs: z.enum(OUTPUT_CRS),
    origin: LatLonSchema.optional().describe('When crs is local.'),
    utmZoneEPSG: z.string().optional().describe('When crs is UTM: the EPSG code of the zone, e.g. "EPSG:32632".'),
    zoneString: z.string().optional().describe('When crs is UTM: zone number plus hemisphere letter, e.g. "32N".'),
    hemisphere: z.enum(['north', 'south']).optional().describe('When crs is UTM.'),
    zone: z.number().int().min(1).max(60).optional().describe('When crs is UTM.'),
    letter: z.string().optional().describe('When crs is UTM: the latitude band letter.'),
  })
  .describe('Coordinate system of the returned coordinates.');

export const ExportSpatialReferenceSchema = SpatialReferenceSchema.extend({
  crs: z
    .string()
    .regex(/^(local|UTM|EPSG:[1-9][0-9]*)$/)
    .describe('`local`, `UTM` or the `EPSG:<n>` code of the file.'),
  name: z.string().optional().describe('EPSG registry name of the CRS.'),
  proj4: z.string().optional().describe('proj4 definition of the CRS.'),
  placement: z.enum(['anchor', 'absolute']).optional().describe('`anchor`: coordinates relative to originGrid; `absolute`: grid coordinates.'),
  units: z.enum(['m', 'mm', 'ft', 'in']).optional().describe('Units of the file (metres for formats with fixed units, e.g. glTF).'),
  originGrid: z.tuple([z.number(), z.number()]).optional().describe('The origin in grid coordinates of crs, in the file units ([0, 0] for local).'),
  gridConvergence: z.number().optional().describe('Radians counter-clockwise from true north to grid north at the origin (0 for local).'),
}).describe('Coordinate system of the exported file.');

export const AttributionSchema = z.object({
  id: z.string(),
  name: z.string(),
  text: z.string().describe('Credit line to render verbatim when displaying or redistributing the output.'),
  license: z.string(),
  url: z.string(),
  required: z.boolean(),
});

export const DataAccessSchema = z
  .object({
    granted: z
      .enum(['full', 'global'])
      .describe(
        '`full`: every premium building dataset covering the area was used (or none covers it). `global`: at least one was held back and worldwide data (OpenStreetMap) stands in for it.',
      ),
    suppressedCountries: z
      .array(z.string())
      .describe('ISO 3166-1 alpha-2 or 3166-2 codes (e.g. `CH`, `DE-BE`) of the premium datasets held back, sorted; empty when `granted` is `full`.'),
    reason: z
      .string()
      .nullable()
      .describe('One sentence saying why premium data was held back (not in the plan, or `buildingSources` is `global`); null when `granted` is `full`.'),
  })
  .describe('Whether the response fell back to worldwide data. Present in every geometry and export response.');

export type DataAccess = z.infer<typeof DataAccessSchema>;

/** Warning codes so far (docs/design.md "Warnings"); more may be added, so clients must accept others. */
export const WARNING_CODES = [
  'elevation_unavailable',
  'elevation_partial',
  'tree_cap_applied',
  'canopy_unavailable',
  'canopy_partial',
  'osm_unavailable',
  'sea_undecided',
  'no_source_data',
] as const;

export const WarningSchema = z
  .object({
    code: z
      .string()
      .regex(/^[a-z][a-z0-9_]*$/)
      .describe(`Stable snake_case code: ${WARNING_CODES.map((c) => `\`${c}\``).join(', ')} (more may be added).`),
    message: z.string().describe('One human sentence.'),
    details: z.looseObject({}).describe('Facts about the shortfall, e.g. `coveredShare` (0..1) for `elevation_partial`.'),
  })
  .describe(
    'Where the model is less than asked for (no elevation data for the area, a cap that cut trees, a source that fell back). Nothing is faked: a missing source gives an empty group plus a warning.',
  );

export type ResponseWarning = z.infer<typeof WarningSchema>;

export const GeometryResponseSchema = z
  .object({
    origin: LatLonSchema.describe('Origin of the local coordinate frame, [latitude, longitude].'),
    geometry: z.array(GeometryGroupSchema).describe('The requested groups, each once, in the order they finished.'),
    warnings: z.array(WarningSchema).describe('Where the model is less than asked for; empty when all is well. Written after the groups.'),
    spatialReference: SpatialReferenceSchema,
    attributions: z.array(AttributionSchema),
    dataAccess: DataAccessSchema,
  })
  .describe('Response 200 without `export`.');

export const ExportResponseSchema = z
  .object({
    downloadUrl: z.string().describe('Direct URL of the exported file; it is stored temporarily.'),
    spatialReference: ExportSpatialReferenceSchema,
    warnings: z.array(WarningSchema).describe('Where the file is less than asked for, as in the geometry response; empty when all is well.'),
    dataAccess: DataAccessSchema,
  })
  .describe('Response 200 with `export`.');

const ERROR_CODES = Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]];

export const ErrorDetailSchema = z.looseObject({
  path: z
    .array(z.union([z.string(), z.number()]))
    .optional()
    .describe('JSON path of the offending value in the request.'),
  message: z.string(),
});

export const ErrorBodySchema = z
  .object({
    error: z.string().describe('One human sentence.'),
    code: z.enum(ERROR_CODES).describe('Stable machine-readable code.'),
    details: z.array(ErrorDetailSchema),
  })
  .describe('Body of every non-2xx response.');
