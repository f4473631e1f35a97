/**
 * The OSM merge over generated OSM buildings around the Berlin sample's real premium footprints
 * (rectangles, some with a part, moved and sized so that every share of overlap occurs): in every
 * request each building comes once; none is lost (an OSM building is replaced only where premium
 * footprints cover at least half of it, kept whole where they cover under a tenth, and every
 * premium building in the polygon is there); and the answer is the same under another polygon,
 * origin and tiling. Shares are measured independently here, by counting points of a fine grid.
 */
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { footprintInteriorPoint } from '../../../../src/geometry/buildings/premium-merge.ts';
import type { OsmFeature } from '../../../../src/osm-model/feature.ts';
import { footprintsInBox, premiumReader, type PremiumFootprint } from '../../../../src/sources/premium/request-reads.ts';
import { listDatasets } from '../../../../src/sources/premium/store.ts';
import { buildingWay } from '../../../support/fakes/osm-building-source.ts';
import { boxPolygon, runTiles, sampleStore, type TileRun } from '../../../support/premium/tile-run.ts';

let store = '';
let box: [number, number, number, number];
let premium: PremiumFootprint[] = [];
const M_LAT = 111_320;
let mLon = 0;

before(async () => {
  store = await sampleStore();
  const db = premiumReader(store)!;
  const b = listDatasets(db).find((d) => d.id === 'berlin-sample')!.bbox!;
  box = [b[0] - 0.0004, b[1] - 0.0004, b[2] + 0.0004, b[3] + 0.0004];
  premium = footprintsInBox(db, box, new Set(['berlin-sample']));
  mLon = M_LAT * Math.cos((box[1] * Math.PI) / 180);
});

/** lon/lat ring containment (even-odd over every ring of a polygon set). */
function inPolygons(lon: number, lat: number, polygons: readonly number[][][]): boolean {
  for (const polygon of polygons) {
    let inside = false;
    for (const ring of polygon)
      for (let i = 0, j = ring.length - 2; i < ring.length; j = i, i += 2) {
        const [xi, yi, xj, yj] = [ring[i], ring[i + 1], ring[j], ring[j + 1]];
        if (yi > lat !== yj > lat && lon < ((xj - xi) * (lat - yi)) / (yj - yi) + xi) inside = !inside;
      }
    if (inside) return true;
  }
  return false;
}

/** Share of a lon/lat rectangle under premium footprints, on a 0.25 m grid. */
function shareUnderPremium(w: number, s: number, e: number, n: number): number {
  const near = premium.filter((p) => p.box[0] <= e && p.box[2] >= w && p.box[1] <= n && p.box[3] >= s);
  const dx = 0.25 / mLon,
    dy = 0.25 / M_LAT;
  let all = 0,
    under = 0;
  for (let lon = w + dx / 2; lon < e; lon += dx)
    for (let lat = s + dy / 2; lat < n; lat += dy) {
      all++;
      if (near.some((p) => inPolygons(lon, lat, p.footprint))) under++;
    }
  return under / all;
}

interface Generated {
  osm: OsmFeature[];
  rects: { id: string; w: number; s: number; e: number; n: number }[];
}

const osmBuildings = fc
  .array(
    fc.record({
      k: fc.nat(),
      dx: fc.integer({ min: -15, max: 15 }),
      dy: fc.integer({ min: -15, max: 15 }),
      width: fc.integer({ min: 8, max: 30 }),
      depth: fc.integer({ min: 8, max: 30 }),
      part: fc.boolean(),
    }),
    { minLength: 10, maxLength: 25 },
  )
  .map((items): Generated => {
    const osm: OsmFeature[] = [];
    const rects: Generated['rects'] = [];
    items.forEach((it, n) => {
      const at = footprintInteriorPoint(premium[it.k % premium.length].footprint)!;
      const w = at[0] + (it.dx - it.width / 2) / mLon,
        e = w + it.width / mLon,
        s = at[1] + (it.dy - it.depth / 2) / M_LAT,
        nn = s + it.depth / M_LAT;
      const id = 1000 + 2 * n;
      osm.push(buildingWay(id, [w, s, e, s, e, nn, w, nn], { name: `b${n}` }));
      if (it.part) {
        const mid = (w + e) / 2;
        osm.push(buildingWay(id + 1, [w, s, mid, s, mid, nn, w, nn], { 'building:part': 'yes', 'building:levels': '3' }));
      }
      rects.push({ id: `way/${id}`, w, s, e, n: nn });
    });
    return { osm, rects };
  });

/** Per building id (part meshes counted under their own ids): how many meshes, and the tiles that built them. */
function tally(run: TileRun): Map<string, { count: number; tiles: Set<number>; vertices: number }> {
  const out = new Map<string, { count: number; tiles: Set<number>; vertices: number }>();
  for (const m of run.meshes) {
    const id = `${String(m.descriptor.id)}${m.descriptor.outlineRemainder ? '/rest' : ''}`;
    const t = out.get(id) ?? { count: 0, tiles: new Set<number>(), vertices: 0 };
    t.count++;
    t.tiles.add(m.tile);
    t.vertices += m.vertices.length;
    out.set(id, t);
  }
  return out;
}

/** Whether any OSM mesh of building `id` (outline, its remainder or a part of it) is in the answer. */
const osmPresent = (run: TileRun, id: string) => run.meshes.some((m) => m.descriptor.id === id || m.descriptor.parentId === id);

test('merge: no building twice, none lost, the same answer under any polygon, origin and tiling', async () => {
  let replaced = 0,
    kept = 0,
    cut = 0;
  await fc.assert(
    fc.asyncProperty(
      osmBuildings,
      fc.record({
        shiftX: fc.integer({ min: -60, max: 60 }),
        shiftY: fc.integer({ min: -60, max: 60 }),
        ox: fc.integer({ min: -2000, max: 2000 }),
        oy: fc.integer({ min: -2000, max: 2000 }),
        tileA: fc.constantFrom(50, 90, 400),
        tileB: fc.constantFrom(70, 130, 250),
      }),
      async (g, o) => {
        const a = await runTiles(store, boxPolygon(...box), { osm: g.osm, tileSize: o.tileA });
        const moved = [box[0] + o.shiftX / mLon, box[1] + o.shiftY / M_LAT, box[2] + o.shiftX / mLon, box[3] + o.shiftY / M_LAT] as const;
        const origin: [number, number] = [(box[1] + box[3]) / 2 + o.oy / M_LAT, (box[0] + box[2]) / 2 + o.ox / mLon];
        const b = await runTiles(store, boxPolygon(...moved), { osm: g.osm, tileSize: o.tileB, origin });
        for (const run of [a, b]) for (const [id, t] of tally(run)) assert.equal(t.tiles.size, 1, `${id} built by ${t.tiles.size} tiles`);
        // every premium building is there, once
        for (const p of premium) assert.ok(tally(a).has(`berlin-sample:${p.id}`), `premium ${p.id} lost`);
        const insideBoth = (r: Generated['rects'][number]) =>
          r.w > Math.max(box[0], moved[0]) && r.e < Math.min(box[2], moved[2]) && r.s > Math.max(box[1], moved[1]) && r.n < Math.min(box[3], moved[3]);
        const ta = tally(a),
          tb = tally(b);
        for (const r of g.rects) {
          const share = shareUnderPremium(r.w, r.s, r.e, r.n);
          const inA = osmPresent(a, r.id);
          if (share < 0.09) assert.ok(inA, `${r.id} (${share.toFixed(3)} under premium) kept`);
          if (share > 0.52) assert.ok(!inA, `${r.id} (${share.toFixed(3)} under premium) replaced`);
          if (share > 0.12 && share < 0.48 && inA) cut++;
          if (share > 0.52) replaced++;
          if (share < 0.09) kept++;
          if (!insideBoth(r)) continue;
          assert.equal(osmPresent(b, r.id), inA, `${r.id}: the same decision in both requests`);
          for (const key of [r.id, `${r.id}/rest`]) assert.equal(tb.get(key)?.vertices, ta.get(key)?.vertices, `${key}: the same mesh in both requests`);
        }
      },
    ),
    { numRuns: 8 },
  );
  assert.ok(replaced > 10 && kept > 10 && cut > 5, `replaced ${replaced}, kept ${kept}, cut ${cut}`);
});
