/**
 * Limits of the HTTP layer against slow, idle and careless clients, with their defaults and the
 * CITY_* variables that set them (docs/configuration.md "Admission and HTTP limits"; what each
 * one protects against: docs/operations.md "Limits and abuse").
 */
export interface HttpLimits {
  /** A response with data waiting that its client has not taken a byte of for this long is cut (not charged), ms. */
  slowReaderTimeoutMs: number;
  /** Bytes of an answer waiting for its client in this process; past it the request's next tiles wait for the client. */
  maxAnswerBufferBytes: number;
  /** A connection reset this soon after the last byte was handed to the kernel gets its charge back, ms. */
  deliveryWindowMs: number;
  /** A connection that sends nothing for this long before its first request is closed, ms. */
  idleTimeoutMs: number;
  /** Time allowed for a request's headers, ms. */
  headersTimeoutMs: number;
  /** Time allowed for a whole request (headers and body), ms. */
  requestTimeoutMs: number;
  /** Open connections at most; at the cap the oldest one without a request yet makes room (connection-guard.ts). */
  maxConnections: number;
  /** Open connections from one client address (IPv6: one /64) at most, trusted proxies exempt; more are closed as they arrive. */
  maxConnectionsPerAddress: number;
  /** Bytes of an oversized or refused upload read and discarded so the client sees its 4xx before the close. */
  maxDrainBytes: number;
  /** Request bodies held in memory at once, all requests together; past it 503 server_busy. */
  maxBufferedBodyBytes: number;
}

export const HTTP_LIMIT_DEFAULTS: HttpLimits = {
  slowReaderTimeoutMs: 30_000,
  maxAnswerBufferBytes: 16 * 1024 * 1024,
  deliveryWindowMs: 2_000,
  idleTimeoutMs: 15_000,
  headersTimeoutMs: 15_000,
  requestTimeoutMs: 60_000,
  maxConnections: 512,
  maxConnectionsPerAddress: 64,
  maxDrainBytes: 16 * 1024 * 1024,
  maxBufferedBodyBytes: 64 * 1024 * 1024,
};

const ENV: Record<keyof HttpLimits, string> = {
  slowReaderTimeoutMs: 'CITY_SLOW_READER_TIMEOUT_MS',
  maxAnswerBufferBytes: 'CITY_MAX_ANSWER_BUFFER_BYTES',
  deliveryWindowMs: 'CITY_DELIVERY_WINDOW_MS',
  idleTimeoutMs: 'CITY_IDLE_TIMEOUT_MS',
  headersTimeoutMs: 'CITY_HEADERS_TIMEOUT_MS',
  requestTimeoutMs: 'CITY_REQUEST_TIMEOUT_MS',
  maxConnections: 'CITY_MAX_CONNECTIONS',
  maxConnectionsPerAddress: 'CITY_MAX_CONNECTIONS_PER_ADDRESS',
  maxDrainBytes: 'CITY_MAX_DRAIN_BYTES',
  maxBufferedBodyBytes: 'CITY_MAX_BUFFERED_BODY_BYTES',
};

/** The limits from CITY_* variables, defaults for the rest; a value that is not a positive number throws. */
export function httpLimitsFromEnv(env: NodeJS.ProcessEnv): HttpLimits {
  const limits = { ...HTTP_LIMIT_DEFAULTS };
  for (const key of Object.keys(ENV) as (keyof HttpLimits)[]) {
    const raw = env[ENV[key]];
    if (raw === undefined || raw === '') continue;
    const n = Number(raw);
    if (!Number.isFinite(n) || n <= 0) throw new Error(`${ENV[key]} must be a positive number, not ${raw}`);
    limits[key] = Math.floor(n);
  }
  return limits;
}
