/**
 * One POST /v1/context from the page: the streamed answer read as it arrives (stream-groups.ts),
 * its items turned into scene objects in batches — a batch is drawn when the group ends or a
 * few hundred milliseconds after the last one — so the first buildings show while the rest still
 * come. Errors come back as the API's own error body.
 */
import type * as THREE from 'three';
import { elevationMesh, type ElevationMap, type Frame, lineBatch, meshBatch, nodeBatch, type ResponseNode } from './model-objects.ts';
import type { SceneView } from './scene-view.ts';
import { GeometryStreamReader, type GroupHeader } from './stream-groups.ts';

export interface ApiFailure {
  status: number;
  error: string;
  code: string;
  details?: unknown[];
}

export interface ModelMeta {
  origin?: unknown;
  spatialReference?: unknown;
  warnings?: { code: string; message: string }[];
  attributions?: { text: string; url?: string }[];
  dataAccess?: unknown;
  /** X-Cost-Km2 of the answer. */
  costKm2: string | null;
  /** Response groups in the order they arrived. */
  groups: string[];
  /** Milliseconds from sending to the answer's first byte, the first objects drawn, and the last byte. */
  timings: { firstByteMs: number; firstDrawnMs: number | null; lastByteMs: number };
}

const FLUSH_MS = 250;

export class ApiRequestError extends Error {
  constructor(readonly failure: ApiFailure) {
    super(failure.error);
  }
}

/** Sends the request and fills the scene; resolves with everything but the geometry when the answer is complete. */
export async function loadModel(
  body: { settings?: { upAxis?: string } },
  apiKey: string,
  view: SceneView,
  onGroup: (group: string) => void,
): Promise<ModelMeta> {
  const sent = performance.now();
  const res = await fetch('/v1/context', {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey}` },
    body: JSON.stringify(body),
  });
  if (!res.ok || !res.body) throw new ApiRequestError(await failureOf(res));
  const frame: Frame = { zUp: body.settings?.upAxis === 'Z', offset: null };
  const pending = new Map<GroupHeader, unknown[]>();
  const groups: string[] = [];
  let lastFlush = performance.now();
  let firstDrawnMs: number | null = null;
  const flush = (only?: GroupHeader) => {
    for (const [header, items] of pending) {
      if ((only && header !== only) || items.length === 0) continue;
      view.add(header.type, objectsFor(header, items, frame));
      firstDrawnMs ??= performance.now() - sent;
      pending.set(header, []);
    }
    lastFlush = performance.now();
  };
  const reader = new GeometryStreamReader({
    group: (h) => {
      pending.set(h, []);
      if (!groups.includes(h.type)) groups.push(h.type);
      onGroup(h.type);
    },
    item: (h, item) => pending.get(h)!.push(item),
    groupEnd: (h) => {
      flush(h);
      pending.delete(h);
    },
  });
  const firstByteMs = performance.now() - sent;
  const decoder = new TextDecoder();
  const stream = res.body.getReader();
  for (;;) {
    const { done, value } = await stream.read();
    if (done) break;
    reader.push(decoder.decode(value, { stream: true }));
    if (performance.now() - lastFlush > FLUSH_MS) flush();
  }
  const lastByteMs = performance.now() - sent;
  reader.push(decoder.decode());
  flush();
  const meta = reader.finish() as Omit<ModelMeta, 'costKm2' | 'groups' | 'timings'>;
  return { ...meta, costKm2: res.headers.get('x-cost-km2'), groups, timings: { firstByteMs, firstDrawnMs, lastByteMs } };
}

function objectsFor(header: GroupHeader, items: unknown[], frame: Frame): THREE.Object3D[] {
  switch (header.geometryType) {
    case 'meshes':
      return [meshBatch(header.type, items as Parameters<typeof meshBatch>[1], frame)];
    case 'nodes':
      return nodeBatch(header.type, items as ResponseNode[], frame);
    case 'elevationMaps':
      return (items as ElevationMap[]).map((m) => elevationMesh(header.type, m, frame));
    case 'polylines':
      return [lineBatch(header.type, items as Parameters<typeof lineBatch>[1], frame)];
    default:
      return [];
  }
}

export async function failureOf(res: Response): Promise<ApiFailure> {
  const text = await res.text();
  try {
    const body = JSON.parse(text) as ApiFailure;
    if (typeof body.error === 'string') return { ...body, status: res.status };
  } catch {
    // not the API's error body (a proxy's page)
  }
  return { status: res.status, error: `HTTP ${res.status}: ${text.slice(0, 200)}`, code: 'http_error' };
}
