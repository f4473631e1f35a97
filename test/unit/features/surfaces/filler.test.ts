/**
 * The filler through the tile tasks (src/features/surfaces/index.ts, filler.ts) on the synthetic
 * dense city (test/support/generators/dense-city.ts, a Manhattan-like grid): the ground no mapped
 * area covers is paved — at most 5 % of the ground outside mapped green is inferred grass — and the
 * ground is the same whatever the tiling: at points sampled over the square and along every road's
 * centerline, two tilings (500 m tiles and 230 m tiles, seams in other places) give the same kind,
 * and no road's centerline lies on the filler in either (pieces of a road on both sides of a seam
 * meet, no filler between them).
 */
import { square } from '../../../support/polygons.ts';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Flatbush from 'flatbush';
import { parseContextRequest } from '../../../../src/contract/parse-request.ts';
import { planTasks } from '../../../../src/features/index.ts';
import { buildTile } from '../../../../src/tile/build-tile.ts';
import { importOsm } from '../../../../src/sources/osm/import.ts';
import { DENSE_CITY_DEFAULTS, writeDenseCity } from '../../../support/generators/dense-city.ts';
import { mulberry32 } from '../../../support/generators/prng.ts';

const CENTRE = DENSE_CITY_DEFAULTS.centre;
const SIDE = 700;
const GREEN = new Set(['grass', 'manicuredGrass', 'garden', 'forest', 'shrubbery', 'farmland']);

const dir = mkdtempSync(join(tmpdir(), 'filler-'));
const store = join(dir, 'osm.sqlite');
before(async () => {
  const pbf = join(dir, 'city.osm.pbf');
  writeDenseCity(pbf, { ...DENSE_CITY_DEFAULTS, sideMetres: 1200 });
  await importOsm(pbf, store);
});
after(() => rmSync(dir, { recursive: true, force: true }));

interface Ground {
  /** Triangles as x0 y0 x1 y1 x2 y2, and each one's kind (`pavement (inferred)`, `asphalt`, …). */
  triangles: number[];
  kinds: string[];
  index: Flatbush;
  centerlines: number[][];
}

async function ground(tileSize: number): Promise<Ground> {
  const polygon = square(CENTRE[0], CENTRE[1], SIDE);
  const request = parseContextRequest({
    polygon,
    origin: CENTRE,
    settings: { geometry: ['surface'], surfaceTypes: ['meshes', 'centerlines'], crs: 'local', upAxis: 'Z', indexedMeshes: true, cropScene: true },
  });
  const triangles: number[] = [],
    kinds: string[] = [],
    centerlines: number[][] = [];
  for (const task of planTasks(request, { tileSize, storePath: store, dem: null }).tasks) {
    const r = await buildTile(task);
    const text = (key: string) => Buffer.from(r.groups[key]?.json ?? new Uint8Array()).toString('utf8');
    for (const m of JSON.parse(`[${text('surface')}]`) as { vertices: number[]; indices: number[]; descriptor: Record<string, unknown> }[]) {
      const kind = `${m.descriptor.type}${m.descriptor.inferred ? ' (inferred)' : ''}`;
      for (let t = 0; t < m.indices.length; t += 3) {
        for (let k = 0; k < 3; k++) triangles.push(m.vertices[3 * m.indices[t + k]], m.vertices[3 * m.indices[t + k] + 1]);
        kinds.push(kind);
      }
    }
    for (const l of JSON.parse(`[${text('surfaceLines')}]`) as { vertices: number[] }[]) centerlines.push(l.vertices);
  }
  const index = new Flatbush(kinds.length);
  for (let i = 0; i < kinds.length; i++) {
    const t = triangles.slice(6 * i, 6 * i + 6);
    index.add(Math.min(t[0], t[2], t[4]), Math.min(t[1], t[3], t[5]), Math.max(t[0], t[2], t[4]), Math.max(t[1], t[3], t[5]));
  }
  index.finish();
  return { triangles, kinds, index, centerlines };
}

/** The kind at (x, y), or null where no triangle is (a building); `near` set when the point lies within 1 cm of a triangle's side. */
function kindAt(g: Ground, x: number, y: number): { kind: string | null; near: boolean } {
  let near = false;
  for (const i of g.index.search(x - 0.01, y - 0.01, x + 0.01, y + 0.01)) {
    const t = g.triangles.slice(6 * i, 6 * i + 6);
    let inside = true;
    for (let k = 0; k < 3; k++) {
      const ax = t[2 * k],
        ay = t[2 * k + 1],
        bx = t[(2 * k + 2) % 6],
        by = t[(2 * k + 3) % 6];
      const len = Math.hypot(bx - ax, by - ay);
      const d = ((bx - ax) * (y - ay) - (by - ay) * (x - ax)) / (len || 1); // > 0 left of the side (counter-clockwise: inside)
      if (Math.abs(d) < 0.01) near = true;
      if (d < 0) inside = false;
    }
    if (inside) return { kind: g.kinds[i], near };
  }
  return { kind: null, near };
}

function areas(g: Ground): Record<string, number> {
  const out: Record<string, number> = {};
  for (let i = 0; i < g.kinds.length; i++) {
    const t = g.triangles.slice(6 * i, 6 * i + 6);
    out[g.kinds[i]] = (out[g.kinds[i]] ?? 0) + ((t[2] - t[0]) * (t[5] - t[1]) - (t[4] - t[0]) * (t[3] - t[1])) / 2;
  }
  return out;
}

test('dense city: at most 5 % of the ground outside mapped green is inferred grass; the filler is mostly paved', async () => {
  const a = areas(await ground(500));
  const total = Object.values(a).reduce((x, y) => x + y, 0);
  const green = Object.entries(a).reduce((s, [k, v]) => s + (GREEN.has(k) ? v : 0), 0);
  const grass = a['grass (inferred)'] ?? 0,
    paved = a['pavement (inferred)'] ?? 0;
  console.log(
    `dense city ${SIDE} m: inferred grass ${((100 * grass) / (total - green)).toFixed(1)} % of the ground outside mapped green, inferred pavement ${((100 * paved) / total).toFixed(1)} %`,
  );
  assert.ok(grass <= 0.05 * (total - green), `inferred grass ${grass.toFixed(0)} m² of ${(total - green).toFixed(0)} m²`);
  assert.ok(paved > 10 * grass, 'the filler is paved');
});

test('any tiling: the same kind at every sampled point and along every road; no road centerline on the filler', async () => {
  const [big, small] = [await ground(500), await ground(230)];
  const random = mulberry32(20);
  const points: [number, number][] = [];
  for (let k = 0; k < 40_000; k++) points.push([(random() - 0.5) * SIDE, (random() - 0.5) * SIDE]);
  let roadPoints = 0;
  for (const g of [big, small]) {
    for (const line of g.centerlines) {
      for (let i = 0; i + 5 < line.length; i += 3) {
        const [x0, y0, x1, y1] = [line[i], line[i + 1], line[i + 3], line[i + 4]];
        const n = Math.ceil(Math.hypot(x1 - x0, y1 - y0) / 2);
        for (let j = 0; j < n; j++) points.push([x0 + ((x1 - x0) * (j + 0.5)) / n, y0 + ((y1 - y0) * (j + 0.5)) / n]);
        roadPoints += n;
      }
    }
  }
  assert.ok(roadPoints > 1000, `points along the centerlines: ${roadPoints}`);
  const differ: string[] = [];
  points.forEach(([x, y], k) => {
    const p = kindAt(big, x, y),
      q = kindAt(small, x, y);
    if (k >= 40_000)
      for (const r of [p, q])
        if (r.kind?.endsWith('(inferred)') && !r.near) differ.push(`the filler on a road's centerline at (${x.toFixed(2)}, ${y.toFixed(2)})`);
    if (p.kind !== q.kind && !p.near && !q.near) differ.push(`(${x.toFixed(2)}, ${y.toFixed(2)}): ${p.kind} with 500 m tiles, ${q.kind} with 230 m tiles`);
  });
  assert.deepEqual(differ.slice(0, 10), [], `${differ.length} points differ`);
});
