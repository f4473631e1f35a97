/**
 * `node --import tsx scripts/gallery/downtown-ground.ts [outDir]`: the synthetic downtown's ground
 * (test/support/generators/downtown.ts) from above, for a person to check that it looks like a
 * real downtown — sidewalks beside the carriageways broken at the corners, crossings over the
 * roads at the junctions, refuge islands in the boulevards, alleys, plazas, parks and yards. Builds
 * the ground through the real tile tasks (the service's tile JSON) and writes, in `outDir`
 * (default ./gallery, git-ignored), `downtown-ground-500.png` (a 500 m square at its centre,
 * 3 px/m) and `downtown-ground-junction.png` (120 m around the refuge island nearest the centre, 8 px/m).
 * Mapped pavement (sidewalks, crossings, islands, plazas) is drawn darker than the inferred
 * pavement between the sidewalks and the façades so the two can be told apart.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from '../../src/config.ts';
import { parseContextRequest } from '../../src/contract/parse-request.ts';
import { planTasks } from '../../src/features/index.ts';
import { createLocalFrame, type LocalFrame } from '../../src/frame/local-frame.ts';
import type { SurfaceMesh } from '../../src/geometry/surfaces/types.ts';
import { importOsm } from '../../src/sources/osm/import.ts';
import { buildTile } from '../../src/tile/build-tile.ts';
import { DOWNTOWN_DEFAULTS, downtownExtract, writeDowntown } from '../../test/support/generators/downtown.ts';
import { GROUND_COLOURS, renderSurfacePng, type Rgb } from '../../test/support/ground-png.ts';
import type { OsmPbfData } from '../../test/support/generators/pbf-writer.ts';
import { square } from '../../test/support/polygons.ts';

const outDir = process.argv[2] ?? join(REPO_ROOT, 'gallery');
const centre = DOWNTOWN_DEFAULTS.centre;
const COLOURS = { ...GROUND_COLOURS, pavement: [150, 130, 105], 'pavement (inferred)': [225, 215, 195], 'grass (inferred)': [190, 215, 160] } as const;

/** Colours of the plain OSM picture, by what a way is. */
const LINE_COLOURS: Record<string, Rgb> = {
  road: [60, 60, 70],
  sidewalk: [160, 120, 60],
  crossing: [220, 40, 40],
  island: [255, 150, 0],
  islandArea: [255, 210, 120],
  service: [110, 110, 200],
  steps: [150, 50, 170],
  pedestrian: [40, 160, 160],
  footway: [200, 160, 90],
  barrier: [20, 120, 20],
  other: [170, 170, 170],
};

function lineKind(t: Record<string, string>): string | undefined {
  if (t['area:highway'] === 'traffic_island') return 'islandArea';
  if (t.footway === 'sidewalk' || t.footway === 'crossing') return t.footway;
  if (t.footway === 'traffic_island') return 'island';
  if (['primary', 'secondary', 'tertiary', 'residential'].includes(t.highway)) return 'road';
  if (['service', 'steps', 'pedestrian', 'footway'].includes(t.highway)) return t.highway;
  if (t.barrier) return 'barrier';
  return t.highway ? 'other' : undefined;
}

/** Each way as quads 0.6 m wide along its segments (a traffic island as its outline, 1 m wide). */
function osmLines(data: OsmPbfData, frame: LocalFrame, at: [number, number]): SurfaceMesh[] {
  const where = new Map(data.nodes.map((n) => [n.id, frame.toLocal(n.lon, n.lat)]));
  const out: SurfaceMesh[] = [];
  const order = ['islandArea', 'barrier', 'other', 'road', 'service', 'pedestrian', 'footway', 'sidewalk', 'steps', 'island', 'crossing'];
  const ways = data.ways.filter((w) => lineKind(w.tags) && w.refs.some((r) => Math.hypot(where.get(r)![0] - at[0], where.get(r)![1] - at[1]) < 150));
  ways.sort((a, b) => order.indexOf(lineKind(a.tags)!) - order.indexOf(lineKind(b.tags)!));
  for (const w of ways) {
    const kind = lineKind(w.tags)!,
      half = kind === 'islandArea' ? 0.5 : 0.3;
    const positions: number[] = [],
      indices: number[] = [];
    for (let k = 0; k + 1 < w.refs.length; k++) {
      const [ax, ay] = where.get(w.refs[k])!,
        [bx, by] = where.get(w.refs[k + 1])!;
      const len = Math.hypot(bx - ax, by - ay) || 1,
        nx = (-(by - ay) / len) * half,
        ny = ((bx - ax) / len) * half;
      const base = positions.length / 3;
      positions.push(ax + nx, ay + ny, 0, bx + nx, by + ny, 0, bx - nx, by - ny, 0, ax - nx, ay - ny, 0);
      indices.push(base, base + 1, base + 2, base, base + 2, base + 3);
    }
    out.push({ mesh: { positions: Float64Array.from(positions), indices: Uint32Array.from(indices) }, descriptor: { type: kind } });
  }
  return out;
}

const dir = mkdtempSync(join(tmpdir(), 'cc-downtown-'));
try {
  const pbf = join(dir, 'downtown.osm.pbf'),
    store = join(dir, 'osm.sqlite');
  writeDowntown(pbf);
  await importOsm(pbf, store);
  // the refuge island nearest the centre: a boulevard's junction, with its crossings and sidewalks
  const frame = createLocalFrame(centre[0], centre[1]);
  let junction: [number, number] = [Infinity, Infinity];
  const data = downtownExtract(DOWNTOWN_DEFAULTS);
  for (const n of data.nodes) {
    if (n.tags?.traffic_calming !== 'island') continue;
    const p = frame.toLocal(n.lon, n.lat);
    if (Math.hypot(p[0], p[1]) < Math.hypot(...junction)) junction = [p[0], p[1]];
  }
  mkdirSync(outDir, { recursive: true });
  for (const [name, side, ppm, at] of [
    ['downtown-ground-500.png', 500, 3, [0, 0]],
    ['downtown-ground-junction.png', 120, 8, junction],
  ] as const) {
    const [lon, lat] = frame.toLonLat(at[0], at[1]);
    const request = parseContextRequest({
      polygon: square(lat, lon, side),
      origin: [lat, lon],
      settings: { geometry: ['surface'], crs: 'local', upAxis: 'Z', indexedMeshes: true },
    });
    const meshes: SurfaceMesh[] = [];
    for (const task of planTasks(request, { tileSize: 500, storePath: store, dem: null }).tasks) {
      const json = Buffer.from((await buildTile(task)).groups.surface?.json ?? new Uint8Array()).toString('utf8');
      if (!json) continue;
      for (const m of JSON.parse(`[${json}]`) as { vertices: number[]; indices: number[]; descriptor: Record<string, unknown> }[]) {
        const type = m.descriptor.inferred ? `${m.descriptor.type} (inferred)` : m.descriptor.type;
        meshes.push({ mesh: { positions: Float64Array.from(m.vertices), indices: Uint32Array.from(m.indices) }, descriptor: { ...m.descriptor, type } });
      }
    }
    const half = side / 2;
    writeFileSync(join(outDir, name), await renderSurfacePng(meshes, { minX: -half, minY: -half, maxX: half, maxY: half }, ppm, COLOURS));
    console.log(`wrote ${join(outDir, name)} (${side} m square, ${ppm} px/m, ${meshes.length} pieces)`);
  }
  const lines = join(outDir, 'downtown-osm-junction.png');
  writeFileSync(
    lines,
    await renderSurfacePng(
      osmLines(data, frame, junction),
      { minX: junction[0] - 60, minY: junction[1] - 60, maxX: junction[0] + 60, maxY: junction[1] + 60 },
      8,
      LINE_COLOURS,
    ),
  );
  console.log(`wrote ${lines} (the OSM ways themselves around the same island, 0.6 m wide lines)`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
