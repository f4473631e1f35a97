/**
 * The OpenAPI 3.1 document of the service, generated from the same zod schemas that validate
 * requests (request-schema.ts) and describe responses (response-schema.ts), so the two cannot drift.
 * Served at GET /v1/openapi.json.
 *
 * @example
 *   const doc = buildOpenApiDocument(); // plain JSON-serialisable object
 */

import { z } from 'zod';
import { ERROR_STATUS } from './errors.ts';
import { MAX_AREA_KM2 } from './limits.ts';
import { defaultGroups, requestGroupNames, responseGroupTypes } from './groups.ts';
import { ExportSchema, GeometrySettingSchema, GroupNameSchema, LatLonSchema, RequestBodySchema, SettingsSchema } from './request-schema.ts';
import {
  AttributionSchema,
  DataAccessSchema,
  DescriptorSchema,
  ElevationMapSchema,
  ErrorBodySchema,
  ExportResponseSchema,
  ExportSpatialReferenceSchema,
  GeometryGroupSchema,
  GroupTypeSchema,
  GeometryResponseSchema,
  MeshSchema,
  NodeSchema,
  PolylineDescriptorSchema,
  PolylineSchema,
  SpatialReferenceSchema,
  WarningSchema,
} from './response-schema.ts';

/** Component name → schema. Named schemas become `#/components/schemas/<name>` references wherever they are used. */
const COMPONENTS: Record<string, z.ZodType> = {
  ContextRequest: RequestBodySchema,
  Settings: SettingsSchema,
  Export: ExportSchema,
  LatLon: LatLonSchema,
  GeometryResponse: GeometryResponseSchema,
  GeometryGroup: GeometryGroupSchema,
  Mesh: MeshSchema,
  ElevationMap: ElevationMapSchema,
  Node: NodeSchema,
  Polyline: PolylineSchema,
  PolylineDescriptor: PolylineDescriptorSchema,
  Descriptor: DescriptorSchema,
  SpatialReference: SpatialReferenceSchema,
  Warning: WarningSchema,
  Attribution: AttributionSchema,
  DataAccess: DataAccessSchema,
  ExportResponse: ExportResponseSchema,
  ExportSpatialReference: ExportSpatialReferenceSchema,
  ErrorBody: ErrorBodySchema,
};

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** JSON Schema 2020-12 (the dialect of OpenAPI 3.1) for every component, with cross references. */
function componentSchemas(): Record<string, unknown> {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(COMPONENTS)) registry.add(schema, { id });
  // `input` documents what goes over the wire: request fields with defaults are optional, and
  // response objects stay open to additions. Refinements and transforms are not represented.
  const { schemas } = z.toJSONSchema(registry, {
    target: 'draft-2020-12',
    io: 'input',
    unrepresentable: 'any',
    uri: (id) => `#/components/schemas/${id}`,
    // group names are checked against the group table when a body is parsed; the document lists the table as it is now
    override: (ctx) => {
      if (ctx.zodSchema === GroupNameSchema) Object.assign(ctx.jsonSchema, { type: 'string', enum: requestGroupNames() });
      if (ctx.zodSchema === GroupTypeSchema) Object.assign(ctx.jsonSchema, { type: 'string', enum: responseGroupTypes() });
      if (ctx.zodSchema === GeometrySettingSchema) ctx.jsonSchema.default = defaultGroups();
    },
  });
  const out: Record<string, unknown> = {};
  for (const [id, schema] of Object.entries(schemas)) {
    const { $schema: _dialect, $id: _id, ...rest } = schema as Record<string, unknown>;
    out[id] = rest;
  }
  return out;
}

function errorResponse(status: number, description: string, headers?: Record<string, unknown>) {
  const codes = Object.entries(ERROR_STATUS)
    .filter(([, s]) => s === status)
    .map(([code]) => `\`${code}\``);
  return {
    description: `${description} Codes: ${codes.join(', ')}.`,
    ...(headers ? { headers } : {}),
    content: { 'application/json': { schema: ref('ErrorBody') } },
  };
}

/** The `downloadUrl` of an export response (no key: the token in the URL is the credential). */
function downloadPath() {
  const file = { schema: { type: 'string', contentMediaType: 'application/octet-stream' } };
  const headers = {
    ETag: { schema: { type: 'string' } },
    'Content-Disposition': { description: 'attachment with `filename` and RFC 8187 `filename*`.', schema: { type: 'string' } },
  };
  return {
    get: {
      operationId: 'downloadExport',
      summary: 'Download an exported file while its link lasts (24 h by default). HEAD, Range (one range) and If-None-Match are supported.',
      security: [],
      parameters: [
        { name: 'token', in: 'path', required: true, schema: { type: 'string', pattern: '^[A-Za-z0-9_-]{24}$' } },
        { name: 'name', in: 'path', required: true, schema: { type: 'string' } },
      ],
      responses: {
        200: { description: 'The file.', headers, content: { 'application/octet-stream': file } },
        206: { description: 'The requested byte range (`Content-Range`).', headers, content: { 'application/octet-stream': file } },
        304: { description: "The client's copy (`If-None-Match`) is current." },
        404: errorResponse(404, 'No such file: the link is wrong or has expired.'),
        416: errorResponse(416, 'The range starts past the end of the file (`Content-Range: bytes */size`).'),
      },
    },
  };
}

export function buildOpenApiDocument(): Record<string, unknown> {
  return {
    openapi: '3.1.0',
    info: {
      title: 'City Context',
      version: '1.0.0',
      description:
        'Turns a polygon on the Earth into a 3D model of its surroundings, returned as JSON geometry or as a link ' +
        `to an exported 3D file. At most ${MAX_AREA_KM2} km² per request; every request counts toward the plan.`,
    },
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    security: [{ bearerAuth: [] }],
    paths: {
      '/v1/context': {
        post: {
          operationId: 'getContext',
          summary: 'Generate the 3D model for a polygon area.',
          requestBody: {
            required: true,
            content: { 'application/json': { schema: ref('ContextRequest') } },
          },
          responses: {
            200: {
              description: 'The model: a geometry response, or an export response when the request has `export`.',
              content: {
                'application/json': { schema: { oneOf: [ref('GeometryResponse'), ref('ExportResponse')] } },
              },
            },
            400: errorResponse(
              400,
              'Invalid request: malformed JSON or HTTP (also nested deeper than 32 or an object with more than 256 keys), polygon not closed, too large or too long, origin too far, or a bad setting.',
            ),
            401: errorResponse(401, 'Missing or invalid API key (with `WWW-Authenticate: Bearer`).'),
            402: errorResponse(402, 'No active subscription or not enough balance for the polygon area.'),
            408: errorResponse(408, 'The request (headers and body) did not arrive in time.'),
            413: errorResponse(413, 'Request body too large (at once, instead of 100 Continue, when a declared length is over the limit).'),
            415: errorResponse(415, 'The body is not `application/json`.'),
            422: errorResponse(422, 'The export format is not available on this installation.'),
            431: errorResponse(431, 'The request headers are too large.'),
            500: errorResponse(500, 'Unexpected server failure; the request is not charged.'),
            503: errorResponse(
              503,
              'Server busy; retry after the given delay. Also at once when the expected wait in the queue is longer than the queue timeout.',
              {
                'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'integer', minimum: 0 } },
              },
            ),
            507: errorResponse(
              507,
              "An export whose file cannot be stored now (directory not writable, disk full, store full of other accounts' live files; with `Retry-After`) or ever (bigger than one account may store). Not charged.",
              {
                'Retry-After': { description: 'Seconds to wait before retrying (`export_storage_unavailable` only).', schema: { type: 'integer', minimum: 1 } },
              },
            ),
          },
        },
      },
      '/v1/exports/{token}/{name}': downloadPath(),
      '/v1/openapi.json': {
        get: {
          operationId: 'getOpenApiDocument',
          summary: 'This document.',
          security: [],
          responses: {
            200: { description: 'The OpenAPI 3.1 description of the service.', content: { 'application/json': { schema: { type: 'object' } } } },
          },
        },
      },
    },
    components: {
      schemas: componentSchemas(),
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer <API_KEY>' },
      },
    },
  };
}
