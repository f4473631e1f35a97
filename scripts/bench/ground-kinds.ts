/**
 * `node --import tsx scripts/bench/ground-kinds.ts <extract.osm.pbf> <lat> <lon> [side metres] [tile metres]`:
 * the ground of a square through the real tile tasks, as the share of its area by kind — the
 * inferred filler apart — and the share of inferred grass in the ground outside mapped green (the
 * measure of docs/ground.md "The filler"). Prints a table; with `PNG=out.png` also writes the
 * ground from above (test/support/ground-png.ts colours, 1 px/m).
 */
import { square } from '../../test/support/polygons.ts';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseContextRequest } from '../../src/contract/parse-request.ts';
import { planTasks } from '../../src/features/index.ts';
import { buildTile } from '../../src/tile/build-tile.ts';
import { importOsm } from '../../src/sources/osm/import.ts';
import type { SurfaceMesh } from '../../src/geometry/surfaces/types.ts';
import { renderSurfacePng } from '../../test/support/ground-png.ts';

const [pbf, latArg, lonArg, sideArg, tileArg] = process.argv.slice(2);
if (!pbf || !latArg || !lonArg) {
  console.error('usage: node --import tsx scripts/bench/ground-kinds.ts <extract.osm.pbf> <lat> <lon> [side metres = 1000] [tile metres = 500]');
  process.exit(2);
}
const centre: [number, number] = [Number(latArg), Number(lonArg)];
const side = Number(sideArg ?? 1000),
  tileSize = Number(tileArg ?? 500);
/** Mapped kinds that are green: what the target's "outside mapped green" leaves out. */
const GREEN = new Set(['grass', 'manicuredGrass', 'garden', 'forest', 'shrubbery', 'farmland']);

const dir = mkdtempSync(join(tmpdir(), 'cc-ground-kinds-'));
try {
  const store = join(dir, 'osm.sqlite');
  await importOsm(pbf, store);
  const polygon = square(centre[0], centre[1], side);
  const request = parseContextRequest({
    polygon,
    origin: centre,
    settings: { geometry: ['surface'], crs: 'local', upAxis: 'Z', indexedMeshes: true, cropScene: true },
  });
  const plan = planTasks(request, { tileSize, storePath: store, dem: null });
  const areas: Record<string, number> = {};
  const meshes: SurfaceMesh[] = [];
  for (const task of plan.tasks) {
    const json = Buffer.from((await buildTile(task)).groups.surface?.json ?? new Uint8Array()).toString('utf8');
    if (!json) continue;
    for (const m of JSON.parse(`[${json}]`) as { vertices: number[]; indices: number[]; descriptor: Record<string, unknown> }[]) {
      if (process.env.PNG) meshes.push({ mesh: { positions: Float64Array.from(m.vertices), indices: Uint32Array.from(m.indices) }, descriptor: m.descriptor });
      const v = m.vertices,
        ix = m.indices;
      let s = 0;
      for (let t = 0; t < ix.length; t += 3) {
        const [p, q, r] = [ix[t] * 3, ix[t + 1] * 3, ix[t + 2] * 3];
        s += ((v[q] - v[p]) * (v[r + 1] - v[p + 1]) - (v[r] - v[p]) * (v[q + 1] - v[p + 1])) / 2;
      }
      const key = `${m.descriptor.type}${m.descriptor.inferred ? ' (inferred)' : ''}`;
      areas[key] = (areas[key] ?? 0) + s;
    }
  }
  const total = Object.values(areas).reduce((x, y) => x + y, 0);
  let green = 0;
  for (const [k, v] of Object.entries(areas)) if (GREEN.has(k)) green += v;
  console.log(`${pbf} ${side} m square at ${centre.join(', ')}: ground ${total.toFixed(0)} m² in ${plan.tasks.length} tiles`);
  for (const [k, v] of Object.entries(areas).sort((x, y) => y[1] - x[1]))
    console.log(`  ${k.padEnd(28)} ${v.toFixed(0).padStart(10)} m²  ${((100 * v) / total).toFixed(1).padStart(5)} %`);
  const inferredGrass = areas['grass (inferred)'] ?? 0;
  console.log(
    `inferred grass: ${((100 * inferredGrass) / total).toFixed(1)} % of the ground, ${((100 * inferredGrass) / (total - green)).toFixed(1)} % of the ground outside mapped green`,
  );
  if (process.env.PNG) writeFileSync(process.env.PNG, await renderSurfacePng(meshes, { minX: -side / 2, minY: -side / 2, maxX: side / 2, maxY: side / 2 }, 1));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
