/** The request contract: what callers may send, what they get back, and the errors in between. */
export { parseContextRequest } from './parse-request.ts';
export { buildOpenApiDocument } from './openapi.ts';
export { RequestBodySchema, SettingsSchema, ExportSchema, LatLonSchema, type RequestBodyInput } from './request-schema.ts';
export * from './response-schema.ts';
export { checkPolygon, checkLatLon, type PolygonVerdict, type RuleViolation } from './polygon-rules.ts';
export { ringAreaKm2, type LatLon } from './polygon-measures.ts';
export { MAX_AREA_KM2, MAX_POLYGON_POINTS, MIN_POLYGON_POINTS, SETTING_BOUNDS } from './limits.ts';
export { ApiError, ERROR_STATUS, type ErrorBody, type ErrorCode, type ErrorDetail } from './errors.ts';
export type { ContextRequest, Settings, ExportRequest, GeometryGroup } from './types.ts';
