/**
 * The download: the same request with `export` (format and its options, a form generated from the
 * API's Export schema) → `{downloadUrl, spatialReference, warnings}` → a link to the file.
 */
import { ApiRequestError, failureOf } from '../viewer/model-loader.ts';

export interface ExportAnswer {
  downloadUrl: string;
  spatialReference?: unknown;
  warnings?: { code: string; message: string }[];
}

export async function requestExport(body: Record<string, unknown>, exportOptions: Record<string, unknown>, apiKey: string): Promise<ExportAnswer> {
  const res = await fetch('/v1/context', {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey}` },
    body: JSON.stringify({ ...body, export: exportOptions }),
  });
  if (!res.ok) throw new ApiRequestError(await failureOf(res));
  return (await res.json()) as ExportAnswer;
}
