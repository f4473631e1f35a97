import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { loadConfig, type ServiceConfig } from '../../../src/config.ts';
import { startService, type RunningService } from '../../../src/service.ts';
import { testDatabaseUrl } from '../accounts/test-database.ts';
import type { IndexedMesh } from '../../../src/geometry/types.ts';

/**
 * Starts the real service on loopback with a scratch data directory, and waits for its start-up
 * behind the server (store built, workers warm): tests use its pool and store directly too.
 */
export async function startTestService(overrides: Partial<ServiceConfig> = {}): Promise<RunningService> {
  const dataDir = mkdtempSync(join(tmpdir(), 'cc-test-'));
  const base = loadConfig({ CITY_DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1' });
  const config = { ...base, databaseUrl: await testDatabaseUrl(), workers: 2, warmUpMs: 300, warmUpRequestsMs: 0, ...overrides };
  const svc = await startService(config, () => {});
  await svc.ready;
  return svc;
}

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json: any;
}

/** POST /v1/context with undici; `key: null` sends no Authorization header. */
export async function postContext(base: string, key: string | null, body: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  const res = await request(`${base}/v1/context`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}), ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.body.text();
  let json: any = null;
  try {
    json = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  return { status: res.statusCode, headers: res.headers, text, json };
}

/** A response mesh (flat triangle list or indexed) as an IndexedMesh for inspectMesh. */
export function toIndexedMesh(m: { vertices: number[]; indices?: number[] }): IndexedMesh {
  const positions = Float64Array.from(m.vertices);
  const indices = m.indices ? Uint32Array.from(m.indices) : Uint32Array.from({ length: positions.length / 3 }, (_, i) => i);
  return { positions, indices };
}
