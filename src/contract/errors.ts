/**
 * The error contract (docs/design.md): every non-2xx answer is
 * `{"error": "<one human sentence>", "code": "<stable snake_case code>", "details": [...]}`.
 */
import { MAX_ERROR_DETAILS } from './limits.ts';

export const ERROR_STATUS = {
  invalid_json: 400,
  invalid_request: 400,
  polygon_too_few_points: 400,
  polygon_too_many_points: 400,
  polygon_not_closed: 400,
  polygon_self_intersecting: 400,
  polygon_too_large: 400,
  polygon_too_long: 400,
  origin_too_far: 400,
  invalid_coordinate: 400,
  invalid_setting: 400,
  unauthorized: 401,
  no_active_subscription: 402,
  insufficient_balance: 402,
  not_found: 404,
  method_not_allowed: 405,
  request_timeout: 408,
  payload_too_large: 413,
  unsupported_media_type: 415,
  range_not_satisfiable: 416,
  headers_too_large: 431,
  format_unavailable: 422,
  internal_error: 500,
  server_busy: 503,
  not_ready: 503,
  export_storage_unavailable: 507,
  export_too_large: 507,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/** One problem found in the request: where (a JSON path) and what. */
export interface ErrorDetail {
  path?: (string | number)[];
  message: string;
  [extra: string]: unknown;
}

export interface ErrorBody {
  error: string;
  code: ErrorCode;
  details: ErrorDetail[];
}

/** An error that becomes an HTTP answer; thrown anywhere on the request path. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: ErrorCode;
  readonly details: ErrorDetail[];
  /** Extra response headers, e.g. Retry-After for 503. */
  readonly headers: Record<string, string>;

  constructor(code: ErrorCode, message: string, details: ErrorDetail[] = [], headers: Record<string, string> = {}) {
    super(message);
    this.name = 'ApiError';
    this.code = code;
    this.status = ERROR_STATUS[code];
    this.details = capDetails(details);
    this.headers = headers;
  }

  toBody(): ErrorBody {
    return { error: this.message, code: this.code, details: this.details };
  }
}

/** At most MAX_ERROR_DETAILS details, then one that counts the rest (`omitted`). */
export function capDetails(details: ErrorDetail[]): ErrorDetail[] {
  if (details.length <= MAX_ERROR_DETAILS) return details;
  const omitted = details.length - MAX_ERROR_DETAILS;
  return [...details.slice(0, MAX_ERROR_DETAILS), { message: `${omitted} more problem(s) not listed.`, omitted }];
}
