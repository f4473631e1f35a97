import { join } from 'node:path';

/** Where exports are kept and for how long (docs/configuration.md "Exports" lists the variables). */
export interface ExportStoreConfig {
  kind: 'local' | 's3';
  /** Lifetime of a download link, ms. */
  ttlMs: number;
  /** Total bytes the store may hold (./eviction.ts: beyond it a new file evicts its own account's oldest, never another's). */
  maxBytes: number;
  /** Bytes one account's files may hold; its oldest are evicted beyond it. */
  accountMaxBytes: number;
  /** Local store: free disk space below which no export starts, bytes. */
  minFreeBytes: number;
  /** How often expired files are swept, ms (also once at start). */
  sweepIntervalMs: number;
  /** Origin used in `downloadUrl` (e.g. `https://city.example.com`); null = the request's Host. */
  publicBaseUrl: string | null;
  /** Local backend: the directory holding one sub-directory per token. */
  dir: string;
  s3: S3StoreConfig | null;
}

export interface S3StoreConfig {
  bucket: string;
  region: string;
  /** Any S3-compatible server (MinIO, R2, s3rver…); undefined = AWS. */
  endpoint?: string;
  /** Path-style URLs (`endpoint/bucket/key`), which most non-AWS servers need. */
  forcePathStyle: boolean;
  /** Undefined = the SDK's default chain (AWS_* variables, instance role…). */
  credentials?: { accessKeyId: string; secretAccessKey: string };
  /** Key prefix of every export object. */
  prefix: string;
}

function num(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${name} must be a positive number, not ${value}`);
  return n;
}

export function exportStoreConfigFromEnv(env: NodeJS.ProcessEnv, dataDir: string): ExportStoreConfig {
  const kind = env.CITY_EXPORT_STORE || 'local';
  if (kind !== 'local' && kind !== 's3') throw new Error(`CITY_EXPORT_STORE must be local or s3, not ${kind}`);
  const endpoint = env.CITY_EXPORT_S3_ENDPOINT || undefined;
  let s3: S3StoreConfig | null = null;
  if (kind === 's3') {
    if (!env.CITY_EXPORT_S3_BUCKET) throw new Error('CITY_EXPORT_STORE=s3 needs CITY_EXPORT_S3_BUCKET');
    const accessKeyId = env.CITY_EXPORT_S3_ACCESS_KEY,
      secretAccessKey = env.CITY_EXPORT_S3_SECRET_KEY;
    s3 = {
      bucket: env.CITY_EXPORT_S3_BUCKET,
      region: env.CITY_EXPORT_S3_REGION || 'us-east-1',
      endpoint,
      forcePathStyle: env.CITY_EXPORT_S3_FORCE_PATH_STYLE ? env.CITY_EXPORT_S3_FORCE_PATH_STYLE === 'true' : endpoint !== undefined,
      credentials: accessKeyId && secretAccessKey ? { accessKeyId, secretAccessKey } : undefined,
      prefix: env.CITY_EXPORT_S3_PREFIX ?? 'exports/',
    };
  }
  const maxBytes = Math.floor(num(env.CITY_EXPORT_MAX_MB, 5120, 'CITY_EXPORT_MAX_MB') * 1048576);
  const base = env.CITY_PUBLIC_BASE_URL?.replace(/\/+$/, '') || null;
  if (base !== null && !/^https?:\/\/[^/]+(\/.*)?$/.test(base)) throw new Error(`CITY_PUBLIC_BASE_URL must be an http(s) URL, not ${base}`);
  return {
    kind,
    ttlMs: num(env.CITY_EXPORT_TTL_HOURS, 24, 'CITY_EXPORT_TTL_HOURS') * 3_600_000,
    maxBytes,
    accountMaxBytes: Math.min(maxBytes, Math.floor(num(env.CITY_EXPORT_ACCOUNT_MAX_MB, maxBytes / 1048576, 'CITY_EXPORT_ACCOUNT_MAX_MB') * 1048576)),
    minFreeBytes: Math.floor(num(env.CITY_EXPORT_MIN_FREE_MB, 256, 'CITY_EXPORT_MIN_FREE_MB') * 1048576),
    sweepIntervalMs: num(env.CITY_EXPORT_SWEEP_MINUTES, 10, 'CITY_EXPORT_SWEEP_MINUTES') * 60_000,
    publicBaseUrl: base,
    dir: join(dataDir, 'exports'),
    s3,
  };
}
