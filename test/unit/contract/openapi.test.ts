import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildOpenApiDocument } from '../../../src/contract/openapi.ts';
import { parseContextRequest } from '../../../src/contract/parse-request.ts';
import { ApiError, ERROR_STATUS } from '../../../src/contract/errors.ts';
import { ElevationMapSchema, ErrorBodySchema, ExportResponseSchema, GeometryResponseSchema, MeshSchema } from '../../../src/contract/response-schema.ts';
import { elevationMapEntry } from '../../../src/geometry/terrain/elevation-map-entry.ts';
import { MONACO, rectangle, SPEC_SETTING_DEFAULTS } from '../../support/arbitraries/contract.ts';

/** Every field name of the spec's Settings and Export tables, copied from SPEC.md. */
const SPEC_SETTINGS_FIELDS = [
  'geometry',
  'surfaceTypes',
  'cropScene',
  'defaultRoofType',
  'defaultLevels',
  'defaultLevelHeight',
  'buildingSources',
  'treeSource',
  'canopyMinHeight',
  'canopyMinSpacing',
  'canopyMaxTrees',
  'topographyModel',
  'topographyReturnType',
  'combineElevationMaps',
  'projectToTopography',
  'disableSurfaceProjection',
  'crs',
  'upAxis',
  'indexedMeshes',
];
const SPEC_EXPORT_FIELDS = ['format', 'crs', 'placement', 'units', 'surfaceType'];

type Json = Record<string, any>;

/** Follows `#/components/schemas/X` references. */
function resolve(doc: Json, schema: Json): Json {
  const ref = schema.$ref as string | undefined;
  return ref ? resolve(doc, doc.components.schemas[ref.replace('#/components/schemas/', '')]) : schema;
}

/** Every $ref in the document points at an existing component. */
function danglingRefs(doc: Json): string[] {
  const missing: string[] = [];
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (node && typeof node === 'object') {
      for (const [key, value] of Object.entries(node)) {
        if (key === '$ref' && typeof value === 'string') {
          const name = value.replace('#/components/schemas/', '');
          if (!value.startsWith('#/components/schemas/') || !(name in doc.components.schemas)) missing.push(value);
        } else walk(value);
      }
    }
  };
  walk(doc);
  return missing;
}

test('property (d): the OpenAPI document is JSON, version 3.1.x, and names every Settings field of the spec', () => {
  const doc = JSON.parse(JSON.stringify(buildOpenApiDocument())) as Json;
  assert.match(doc.openapi, /^3\.1\.\d+$/);
  assert.equal(doc.info.version, '1.0.0');
  assert.deepEqual(danglingRefs(doc), []);

  const post = doc.paths['/v1/context'].post;
  assert.equal(post.operationId, 'getContext');
  const body = resolve(doc, post.requestBody.content['application/json'].schema);
  assert.deepEqual(body.required, ['polygon']);
  assert.deepEqual(Object.keys(body.properties).sort(), ['export', 'origin', 'polygon', 'settings']);
  assert.equal(body.properties.polygon.minItems, 4);
  assert.equal(body.properties.polygon.maxItems, 10000);

  const settings = resolve(doc, body.properties.settings);
  for (const field of SPEC_SETTINGS_FIELDS) assert.ok(field in settings.properties, `settings.${field} missing`);
  assert.deepEqual(Object.keys(settings.properties).sort(), [...SPEC_SETTINGS_FIELDS].sort());
  // Defaults in the document are the spec's defaults.
  for (const [field, value] of Object.entries(SPEC_SETTING_DEFAULTS)) {
    assert.deepEqual(settings.properties[field].default, value, `default of ${field}`);
  }
  assert.deepEqual(settings.properties.crs.enum, ['local', 'EPSG:3857', 'UTM']);
  assert.equal(settings.properties.canopyMaxTrees.maximum, 40000);
  assert.equal(settings.properties.canopyMaxTrees.type, 'integer');

  const exp = resolve(doc, body.properties.export);
  assert.deepEqual(Object.keys(exp.properties).sort(), [...SPEC_EXPORT_FIELDS].sort());
  assert.deepEqual(exp.required, ['format']);

  for (const status of ['200', '400', '401', '402', '413', '503']) assert.ok(status in post.responses, `response ${status}`);
  for (const status of ['400', '401', '402', '413', '503']) {
    assert.equal(post.responses[status].content['application/json'].schema.$ref, '#/components/schemas/ErrorBody');
  }
  assert.ok('Retry-After' in post.responses['503'].headers);
  assert.deepEqual(
    post.responses['200'].content['application/json'].schema.oneOf.map((s: Json) => s.$ref),
    ['#/components/schemas/GeometryResponse', '#/components/schemas/ExportResponse'],
  );
  assert.deepEqual(doc.components.securitySchemes.bearerAuth, { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer <API_KEY>' });
  assert.deepEqual(doc.security, [{ bearerAuth: [] }]);
  assert.deepEqual(doc.paths['/v1/openapi.json'].get.security, []);

  const errorBody = resolve(doc, { $ref: '#/components/schemas/ErrorBody' });
  assert.deepEqual(errorBody.properties.code.enum, Object.keys(ERROR_STATUS));
  const group = resolve(doc, { $ref: '#/components/schemas/GeometryGroup' });
  assert.deepEqual(
    group.oneOf.map((g: Json) => g.properties.geometryType.const),
    ['meshes', 'elevationMaps', 'nodes', 'polylines'],
  );
  // surfaceLines items (DESIGN.md "Polylines"): {vertices, closed, descriptor: {type, kind, id, …}}
  const polyline = resolve(doc, { $ref: '#/components/schemas/Polyline' });
  assert.deepEqual(polyline.required, ['vertices', 'closed', 'descriptor']);
  const lineDescriptor = resolve(doc, polyline.properties.descriptor);
  assert.deepEqual(lineDescriptor.properties.kind.enum, ['centerline', 'outline']);
  for (const field of ['type', 'kind', 'id']) assert.ok(lineDescriptor.properties[field].description, `polyline descriptor ${field} documented`);
});

/** A unit cube as a flat triangle list (12 triangles). */
function cubeVertices(): number[] {
  const c = [
    [0, 0, 0],
    [1, 0, 0],
    [1, 1, 0],
    [0, 1, 0],
    [0, 0, 1],
    [1, 0, 1],
    [1, 1, 1],
    [0, 1, 1],
  ];
  const faces = [
    [0, 2, 1],
    [0, 3, 2],
    [4, 5, 6],
    [4, 6, 7],
    [0, 1, 5],
    [0, 5, 4],
    [1, 2, 6],
    [1, 6, 5],
    [2, 3, 7],
    [2, 7, 6],
    [3, 0, 4],
    [3, 4, 7],
  ];
  return faces.flatMap((f) => f.flatMap((i) => c[i]));
}

const realElevationMap = () =>
  elevationMapEntry({
    bbox: { minX: -50, minY: -50, maxX: 50, maxY: 50 },
    columns: 3,
    rows: 3,
    heights: Float32Array.from([12, 14, 15, 11, 13, 16, 10, 12, 14]),
  });

const geometryResponse = () => ({
  origin: MONACO,
  spatialReference: { crs: 'local', origin: MONACO },
  geometry: [
    { type: 'buildings', geometryType: 'meshes', meshes: [{ vertices: cubeVertices(), descriptor: { type: 'building', id: 'way/1', buildingLevels: 1 } }] },
    { type: 'topography', geometryType: 'elevationMaps', elevationMaps: [realElevationMap()] },
    {
      type: 'infrastructure',
      geometryType: 'nodes',
      nodes: [{ type: 'tree', x: 1, y: 0, z: -2, rotation: 0.5, scale: 1, descriptor: { type: 'tree', height: 8, crownDiameter: 5 } }],
    },
    {
      type: 'surfaceLines',
      geometryType: 'polylines',
      polylines: [
        { vertices: [0, 0, 0, 10, 0, 0], closed: false, descriptor: { type: 'asphalt', kind: 'centerline', id: 'way/1', highway: 'residential', width: 6 } },
        { vertices: [0, 0, 0, 10, 0, 0, 10, 10, 0], closed: true, descriptor: { type: 'grass', kind: 'outline', inferred: true } },
      ],
    },
    { type: 'barriers', geometryType: 'meshes', meshes: [] },
  ],
  warnings: [{ code: 'elevation_partial', message: 'Elevation data covers 62.9% of the terrain.', details: { coveredShare: 0.629 } }],
  attributions: [
    {
      id: 'osm',
      name: 'OpenStreetMap',
      text: '© OpenStreetMap contributors',
      license: 'ODbL 1.0',
      url: 'https://www.openstreetmap.org/copyright',
      required: true,
    },
  ],
  dataAccess: { granted: 'full', suppressedCountries: [], reason: null },
});

test('response schemas accept well-formed responses, including a real elevation map entry', () => {
  GeometryResponseSchema.parse(geometryResponse());
  const indexed = { vertices: [0, 0, 0, 1, 0, 0, 0, 1, 0], indices: [0, 1, 2], descriptor: { type: 'asphalt' } };
  MeshSchema.parse(indexed);
  const held = { granted: 'global', suppressedCountries: ['CH', 'DE-BE'], reason: "The account's plan does not include it." };
  ExportResponseSchema.parse({ downloadUrl: 'https://example.org/exports/abc.obj', spatialReference: { crs: 'EPSG:32632' }, warnings: [], dataAccess: held });
  ExportResponseSchema.parse({
    downloadUrl: 'https://example.org/exports/abc.glb',
    spatialReference: { crs: 'local', origin: MONACO },
    warnings: [],
    dataAccess: geometryResponse().dataAccess,
  });
  // every export answer says what it was granted, as a geometry answer does
  assert.throws(() =>
    ExportResponseSchema.parse({ downloadUrl: 'https://example.org/x.obj', spatialReference: { crs: 'local', origin: MONACO }, warnings: [] }),
  );
  GeometryResponseSchema.parse({ ...geometryResponse(), dataAccess: held });
  GeometryResponseSchema.parse({
    ...geometryResponse(),
    spatialReference: { crs: 'UTM', utmZoneEPSG: 'EPSG:32632', zoneString: '32N', hemisphere: 'north', zone: 32, letter: 'T' },
  });
});

test('response schemas reject what would break a client', () => {
  const broken: [string, (r: Json) => void][] = [
    [
      'triangle list not a multiple of 9',
      (r) => {
        r.geometry[0].meshes[0].vertices.push(1, 2, 3);
      },
    ],
    [
      'index past the last vertex',
      (r) => {
        r.geometry[0].meshes[0].indices = [0, 1, 36];
      },
    ],
    [
      'elevation map of the wrong length',
      (r) => {
        r.geometry[1].elevationMaps[0].elevationMap.pop();
      },
    ],
    [
      'geometryType without its array',
      (r) => {
        delete r.geometry[2].nodes;
      },
    ],
    [
      'unknown group type',
      (r) => {
        r.geometry[0].type = 'trees';
      },
    ],
    [
      'missing dataAccess',
      (r) => {
        delete r.dataAccess;
      },
    ],
    [
      'dataAccess granted neither full nor global',
      (r) => {
        r.dataAccess.granted = 'premium';
      },
    ],
    [
      'missing warnings',
      (r) => {
        delete r.warnings;
      },
    ],
    [
      'warning without a code',
      (r) => {
        delete r.warnings[0].code;
      },
    ],
    [
      'crs outside the enumeration',
      (r) => {
        r.spatialReference.crs = 'EPSG:4326';
      },
    ],
    [
      'origin with three numbers',
      (r) => {
        r.origin = [43.7, 7.4, 0];
      },
    ],
    [
      'descriptor without type',
      (r) => {
        delete r.geometry[0].meshes[0].descriptor.type;
      },
    ],
    [
      'polyline with one point',
      (r) => {
        r.geometry[3].polylines[0].vertices = [0, 0, 0];
      },
    ],
    [
      'polyline without closed',
      (r) => {
        delete r.geometry[3].polylines[0].closed;
      },
    ],
    [
      'polyline descriptor without kind',
      (r) => {
        delete r.geometry[3].polylines[0].descriptor.kind;
      },
    ],
    [
      'polyline kind neither centerline nor outline',
      (r) => {
        r.geometry[3].polylines[1].descriptor.kind = 'edge';
      },
    ],
  ];
  for (const [name, breakIt] of broken) {
    const response = geometryResponse() as Json;
    breakIt(response);
    assert.equal(GeometryResponseSchema.safeParse(response).success, false, name);
  }
  assert.equal(ElevationMapSchema.safeParse({ ...realElevationMap(), elevationMap: [1, 2, 3, 4] }).success, false);
});

test('every ApiError body from the request parser matches ErrorBody', () => {
  const bodies: unknown[] = [
    null,
    {},
    { polygon: 'x' },
    { polygon: rectangle(MONACO, 5000, 5000) },
    { polygon: rectangle(MONACO, 100, 100), settings: { upAxis: 'x' } },
  ];
  for (const body of bodies) {
    try {
      parseContextRequest(body);
      assert.fail('accepted');
    } catch (error) {
      assert.ok(error instanceof ApiError);
      ErrorBodySchema.parse(JSON.parse(JSON.stringify(error.toBody())));
    }
  }
});
