/**
 * The request as the page will send it, checked in the browser by the API's own contract code
 * (src/contract: the same zod schema and polygon rules the server runs), so the message under the
 * map is the one the API would answer, word for word, before anything is sent.
 */
import { parseContextRequest } from '../../contract/parse-request.ts';
import { ApiError } from '../../contract/errors.ts';
import { registerGroup, requestGroupNames } from '../../contract/groups.ts';
import { ringAreaKm2 } from '../../contract/polygon-measures.ts';

/** The smallest charge (docs/api.md "Keys and billing"). */
const MIN_COST_KM2 = 0.01;

export interface RequestVerdict {
  ok: boolean;
  /** Geodesic area, km² (null when the ring has too few points to have one). */
  areaKm2: number | null;
  costKm2: number | null;
  code?: string;
  message?: string;
}

/**
 * Groups a feature family registered on the server (listed in its OpenAPI document) become known
 * here too, so the browser's check accepts every name the server does.
 */
export function learnGroupNames(names: readonly string[]): void {
  const known = new Set(requestGroupNames());
  for (const name of names) {
    if (!known.has(name)) registerGroup({ name, byDefault: false, outputs: [{ key: name, geometryType: 'meshes' }] });
  }
}

/** Checks a request body as POST /v1/context would. */
export function checkRequest(body: unknown): RequestVerdict {
  const polygon = (body as { polygon?: [number, number][] }).polygon;
  let areaKm2: number | null = null;
  try {
    areaKm2 = polygon && polygon.length >= 4 ? ringAreaKm2(polygon) : null;
  } catch {
    areaKm2 = null;
  }
  const costKm2 = areaKm2 === null ? null : Math.max(areaKm2, MIN_COST_KM2);
  try {
    parseContextRequest(body);
    return { ok: true, areaKm2, costKm2 };
  } catch (err) {
    if (err instanceof ApiError) return { ok: false, areaKm2, costKm2, code: err.code, message: err.message };
    return { ok: false, areaKm2, costKm2, code: 'invalid_request', message: String(err) };
  }
}

/** The API's closed [lat, lon] ring for a drawn [lon, lat] ring. */
export function apiPolygon(ring: readonly [number, number][]): [number, number][] {
  const out = ring.map(([lon, lat]) => [round7(lat), round7(lon)] as [number, number]);
  if (out.length > 0) out.push([out[0][0], out[0][1]]);
  return out;
}

const round7 = (v: number) => Math.round(v * 1e7) / 1e7;
