/**
 * `npm run gallery:exports-monaco [outDir]`: one export of the Monaco sample per format, for a person to
 * open in Rhino, Blender, SketchUp, a glTF viewer… Starts the real service on a scratch data dir
 * (bundled monaco.osm.pbf and SRTM tile), asks for the README's sample square with every default
 * group plus topography through `POST /v1/context` with `export`, downloads each file from its
 * `downloadUrl` and writes it to `<outDir>/exports/` (default ./gallery, git-ignored), printing
 * size and time. skp and rvt have no writer (422): they are listed, not written.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { loadConfig, REPO_ROOT } from '../../src/config.ts';
import { EXPORT_FORMATS } from '../../src/contract/types.ts';
import { startService } from '../../src/service.ts';

const outDir = join(process.argv[2] ?? join(REPO_ROOT, 'gallery'), 'exports');
const polygon = [
  [43.7325, 7.4165],
  [43.7325, 7.4215],
  [43.7365, 7.4215],
  [43.7365, 7.4165],
  [43.7325, 7.4165],
];
const settings = { geometry: ['buildings', 'surface', 'barriers', 'instances', 'topography'], topographyReturnType: 'meshes' };

const dataDir = mkdtempSync(join(tmpdir(), 'cc-gallery-'));
const service = await startService({ ...loadConfig({ CITY_DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1' }), warmUpRequestsMs: 0 }, () => {});
mkdirSync(outDir, { recursive: true });
try {
  for (const format of EXPORT_FORMATS) {
    const t0 = performance.now();
    const res = await request(`${service.url}/v1/context`, {
      method: 'POST',
      headers: { authorization: `Bearer ${service.demo!.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ polygon, settings, export: { format, placement: 'anchor', units: 'm' } }),
    });
    const answer = (await res.body.json()) as { downloadUrl?: string; error?: string };
    if (res.statusCode !== 200 || !answer.downloadUrl) {
      console.log(`${format.padEnd(5)} ${res.statusCode} ${answer.error ?? ''}`);
      continue;
    }
    const file = await request(answer.downloadUrl);
    const bytes = Buffer.from(await file.body.arrayBuffer());
    const name = decodeURIComponent(answer.downloadUrl.split('/').pop()!);
    writeFileSync(join(outDir, name), bytes);
    console.log(
      `${format.padEnd(5)} ${(bytes.length / 1024).toFixed(0).padStart(6)} kB  ${(performance.now() - t0).toFixed(0).padStart(5)} ms  ${join(outDir, name)}`,
    );
  }
} finally {
  await service.close();
}
