/**
 * How a storage problem reaches the client (docs/api.md "Errors"): 507 with the reason, and for a
 * problem that can pass (a full disk, a store full of other accounts' links) `Retry-After`.
 * Thrown by the stores before an export is built when they already know, and when storing fails.
 */
import { ApiError } from '../../contract/errors.ts';

/** How long a client should wait when the store cannot tell when room comes back, s. */
const DEFAULT_RETRY_S = 60;

/** 507 export_storage_unavailable: the export could not be stored now, with the reason and when to retry. */
export function storageUnavailable(reason: string, details: Record<string, unknown>, retryAfterS = DEFAULT_RETRY_S): ApiError {
  const retry = Math.max(1, Math.ceil(retryAfterS));
  return new ApiError(
    'export_storage_unavailable',
    `The export could not be stored: ${reason}. Nothing is charged; retry in ${retry} s.`,
    [{ message: reason, ...details }],
    {
      'Retry-After': String(retry),
    },
  );
}

/** 507 export_too_large: the file is bigger than the store may hold for one account; retrying will not help. */
export function exportTooLarge(size: number, maxBytes: number): ApiError {
  const mb = (n: number) => (n >= 1048576 ? `${(n / 1048576).toFixed(1)} MB` : `${Math.ceil(n / 1024)} kB`);
  return new ApiError(
    'export_too_large',
    `The export file is ${mb(size)}, more than the ${mb(maxBytes)} this server stores for one account; make the polygon smaller, ask for fewer groups or choose a more compact format. Nothing is charged.`,
    [{ message: `file ${size} bytes, limit ${maxBytes} bytes`, sizeBytes: size, maxBytes }],
  );
}

/** Whether an error (also one cloned from an export thread, which may lose its `code`) says the disk is full. */
export function isNoSpace(err: unknown): boolean {
  const e = err as { code?: string; message?: string } | null;
  return e?.code === 'ENOSPC' || e?.code === 'EDQUOT' || /\bENOSPC\b|\bEDQUOT\b|no space left on device/i.test(String(e?.message ?? ''));
}

/** Whether an error says the directory cannot be written (read-only, permissions). */
export function isUnwritable(err: unknown): boolean {
  const code = (err as { code?: string } | null)?.code;
  return code === 'EROFS' || code === 'EACCES' || code === 'EPERM';
}
