/**
 * One scene of `npm run gallery:scenes` as a user downloads it: starts the real service on a
 * scratch data directory (with the scene's OSM extract and elevation sources, set the way
 * docs/configuration.md says), asks `POST /v1/context` for a GLB export of the polygon and saves
 * the file from its `downloadUrl`.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { loadConfig } from '../../src/config.ts';
import { startService } from '../../src/service.ts';

export interface SceneRequest {
  /** Closed ring of [latitude, longitude]. */
  polygon: [number, number][];
  origin: [number, number];
  settings: Record<string, unknown>;
  /** Service environment beyond the scratch data directory (CITY_OSM_EXTRACT, CITY_DEM_SOURCES…). */
  env: Record<string, string>;
}

/** Writes the scene's GLB to `file`; returns the answer's warnings and the time the request took. */
export async function exportScene(scene: SceneRequest, file: string): Promise<{ warnings: unknown[]; seconds: number }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'cc-scene-'));
  const config = loadConfig({ ...scene.env, CITY_DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', CITY_WARMUP_MS: '0' });
  const service = await startService({ ...config, warmUpRequestsMs: 0 }, (line) => console.log(`  service: ${line}`));
  try {
    const t0 = performance.now();
    const res = await request(`${service.url}/v1/context`, {
      method: 'POST',
      headers: { authorization: `Bearer ${service.demo!.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ polygon: scene.polygon, origin: scene.origin, settings: scene.settings, export: { format: 'glb', placement: 'anchor' } }),
    });
    const answer = (await res.body.json()) as { downloadUrl?: string; error?: string; message?: string; warnings?: unknown[] };
    if (res.statusCode !== 200 || !answer.downloadUrl)
      throw new Error(`POST /v1/context answered ${res.statusCode}: ${answer.error ?? ''} ${answer.message ?? ''}`);
    const download = await request(answer.downloadUrl);
    if (download.statusCode !== 200) throw new Error(`GET ${answer.downloadUrl} answered ${download.statusCode}`);
    writeFileSync(file, Buffer.from(await download.body.arrayBuffer()));
    return { warnings: answer.warnings ?? [], seconds: (performance.now() - t0) / 1000 };
  } finally {
    await service.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** A square of `side` metres around `centre` ([lat, lon]) as a closed [lat, lon] ring. */
export function squareAround(centre: [number, number], side: number): [number, number][] {
  const [lat, lon] = centre;
  const a = side / 2 / 111_320,
    b = side / 2 / (111_320 * Math.cos((lat * Math.PI) / 180));
  return [
    [lat - a, lon - b],
    [lat - a, lon + b],
    [lat + a, lon + b],
    [lat + a, lon - b],
    [lat - a, lon - b],
  ];
}
