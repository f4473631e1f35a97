/**
 * The sea of the real Monaco extract from its `natural=coastline` ways (issue 8): imported with
 * importOsm into a temporary store, queried per tile square plus a 1 km margin like the ground
 * family will, and built with seaAreas.
 *
 * Facts checked in the data first, without seaAreas: counting how often a 3 km ray to the
 * south-east (to the open Mediterranean, beyond the extract) crosses a coastline way, the open sea
 * point 43.733 N 7.43 E crosses none (sea), Port Hercule 2 times and the Fontvieille basin 4 times
 * (even: sea), the Prince's Palace 3 times (odd: land).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Clipper, FillRule } from 'clipper2-ts';
import { importOsm } from '../../../../../src/sources/osm/import.ts';
import { OsmStore } from '../../../../../src/sources/osm/store.ts';
import { createLocalFrame, projectFlat, type LocalFrame } from '../../../../../src/frame/local-frame.ts';
import type { LonLatBBox } from '../../../../../src/osm-model/feature.ts';
import type { BBox, Footprint } from '../../../../../src/geometry/types.ts';
import type { SurfaceArea } from '../../../../../src/geometry/surfaces/types.ts';
import { hasCrossingSides, pathsOf, totalArea } from '../../../../../src/geometry/planar/pieces.ts';
import { pointInRing, signedArea2 } from '../../../../../src/geometry/ring.ts';
import { seaAreas, joinCoastlines, nearestBoxPoint, type Coastline } from '../../../../../src/geometry/surfaces/sea/index.ts';
import { clipSegment } from '../../../../../src/geometry/surfaces/sea/clip.ts';
import { distanceToSegment } from '../../../../support/scenes/shapes.ts';

const MONACO = 'data/monaco/monaco.osm.pbf';
const MARGIN = 1000;
const dir = mkdtempSync(join(tmpdir(), 'sea-monaco-'));
let store: OsmStore;
/** The frame of the tiles: origin over Port Hercule, tiles on a 500 m grid centred there. */
const frame = createLocalFrame(43.735, 7.425);

before(async () => {
  const db = join(dir, 'osm.sqlite');
  await importOsm(MONACO, db);
  store = OsmStore.open(db);
});

after(() => {
  store?.close();
  rmSync(dir, { recursive: true, force: true });
});

function square(b: BBox): Footprint {
  return { outer: [b.minX, b.minY, b.maxX, b.minY, b.maxX, b.maxY, b.minX, b.maxY], holes: [] };
}

/** The box around a local box, in lon/lat. */
function lonLatBox(f: LocalFrame, b: BBox): LonLatBBox {
  const corners = [
    [b.minX, b.minY],
    [b.maxX, b.minY],
    [b.maxX, b.maxY],
    [b.minX, b.maxY],
  ].map(([x, y]) => f.toLonLat(x, y));
  return {
    minLon: Math.min(...corners.map((c) => c[0])),
    maxLon: Math.max(...corners.map((c) => c[0])),
    minLat: Math.min(...corners.map((c) => c[1])),
    maxLat: Math.max(...corners.map((c) => c[1])),
  };
}

/** The coastline ways a tile reads: those meeting its square plus the margin, projected. */
function coastlinesFor(b: BBox): Coastline[] {
  const wide = { minX: b.minX - MARGIN, minY: b.minY - MARGIN, maxX: b.maxX + MARGIN, maxY: b.maxY + MARGIN };
  return store
    .query(lonLatBox(frame, wide), ['water'])
    .filter((f) => f.tags.natural === 'coastline' && f.kind === 'line' && f.line)
    .map((f) => ({ id: f.id, points: projectFlat(frame, f.line!) }));
}

function seaOfTile(b: BBox): SurfaceArea[] {
  return seaAreas(coastlinesFor(b), square(b));
}

const footprints = (areas: readonly SurfaceArea[]) => areas.flatMap((a) => a.footprints);

function inSea(areas: readonly SurfaceArea[], x: number, y: number): boolean {
  return footprints(areas).some((f) => pointInRing(x, y, f.outer) && !f.holes.some((h) => pointInRing(x, y, h)));
}

/** The tile of the 500 m grid holding a point. */
function tileAt(x: number, y: number): BBox {
  const minX = Math.floor((x + 250) / 500) * 500 - 250,
    minY = Math.floor((y + 250) / 500) * 500 - 250;
  return { minX, minY, maxX: minX + 500, maxY: minY + 500 };
}

function assertValid(areas: readonly SurfaceArea[], b: BBox): void {
  for (const a of areas) {
    assert.equal(a.kind, 'water');
    assert.equal(a.descriptor.sea, true);
    for (const f of a.footprints) {
      assert.ok(signedArea2(f.outer) > 0);
      for (const h of f.holes) assert.ok(signedArea2(h) < 0);
      assert.ok(!hasCrossingSides([f.outer, ...f.holes]));
      for (let i = 0; i < f.outer.length; i += 2) {
        assert.ok(f.outer[i] >= b.minX && f.outer[i] <= b.maxX && f.outer[i + 1] >= b.minY && f.outer[i + 1] <= b.maxY);
      }
    }
  }
}

test('Monaco: the coastline in the data', () => {
  const all = store.query({ minLon: -180, minLat: -90, maxLon: 180, maxLat: 90 }, ['water']).filter((f) => f.tags.natural === 'coastline');
  const closedWays = all.filter((f) => f.line && f.line[0] === f.line[f.line.length - 2] && f.line[1] === f.line[f.line.length - 1]);
  const chains = joinCoastlines(all.map((f) => ({ id: f.id, points: projectFlat(frame, f.line!) })));
  console.log(`coastline ways: ${all.length} (all lines; ${closedWays.length} closed: ${closedWays.map((f) => f.id).join(', ')})`);
  for (const c of chains) {
    const start = frame.toLonLat(c.points[0], c.points[1]),
      end = frame.toLonLat(c.points[c.points.length - 2], c.points[c.points.length - 1]);
    console.log(
      c.closed
        ? `  closed ring: ${c.points.length / 2} points, ${(signedArea2(c.points) / 2).toFixed(0)} m² (counter-clockwise: land inside, an islet)`
        : `  open chain of ${new Set(c.segmentIds).size} ways, ${c.points.length / 2} points, from ${start.map((v) => v.toFixed(5))} to ${end.map((v) => v.toFixed(5))} (the extract cuts the coast at both ends)`,
    );
  }
  assert.equal(all.length, 20);
  assert.ok(
    all.every((f) => f.kind === 'line'),
    'coastlines are stored as lines, closed or not',
  );
  assert.equal(chains.filter((c) => c.closed).length, 1);
  assert.equal(chains.filter((c) => !c.closed).length, 1, 'the other 19 ways join end to start into one chain');
});

test('Monaco: the square over Port Hercule is partly sea, the basin is sea', () => {
  const b = { minX: -250, minY: -250, maxX: 250, maxY: 250 };
  const ways = coastlinesFor(b);
  const t = performance.now();
  const sea = seaAreas(ways, square(b));
  const ms = performance.now() - t;
  assertValid(sea, b);
  const area = totalArea(footprints(sea));
  console.log(
    `Port Hercule square: ${ways.length} coastline ways read, sea ${area.toFixed(0)} m² of 250000 (${(area / 2500).toFixed(1)}%) in ${sea.length} area(s) [${sea.map((a) => a.descriptor.id).join(' | ')}], ${ms.toFixed(1)} ms`,
  );
  assert.ok(area > 0.3 * 250000 && area < 0.9 * 250000, `partly sea: ${area} m²`);
  assert.ok(inSea(sea, 0, 0), 'the middle of the basin');
  assert.ok(
    sea.some((a) => String(a.descriptor.id).includes('way/166624054')),
    "bounded by the harbour's coastline way",
  );
});

test("Monaco: the open sea is sea, the Prince's Palace and the Casino are not; Fontvieille's basin is sea", () => {
  const at = (lat: number, lon: number) => frame.toLocal(lon, lat);
  for (const [name, lat, lon, sea] of [
    ['open sea 43.733 N 7.43 E', 43.733, 7.43, true],
    ["Prince's Palace 43.7317 N 7.4197 E", 43.7317, 7.4197, false],
    ['Casino 43.7394 N 7.4277 E', 43.7394, 7.4277, false],
    ['Fontvieille basin 43.7305 N 7.4195 E', 43.7305, 7.4195, true],
  ] as const) {
    const [x, y] = at(lat, lon);
    const b = tileAt(x, y);
    const areas = seaOfTile(b);
    assertValid(areas, b);
    console.log(
      `${name}: local (${x.toFixed(0)}, ${y.toFixed(0)}), tile sea ${(totalArea(footprints(areas)) / 2500).toFixed(1)}%, point in sea: ${inSea(areas, x, y)}`,
    );
    assert.equal(inSea(areas, x, y), sea, name);
  }
});

test('Monaco: neighbouring tiles agree, and no sea lies on the land side of the coast (3 km × 3 km on the tile grid)', () => {
  let worst = 0,
    tiles = 0,
    seaArea = 0,
    beyondReach = 0;
  for (let x = -1750; x < 1750; x += 500) {
    for (let y = -1750; y < 1750; y += 500) {
      const b = { minX: x, minY: y, maxX: x + 500, maxY: y + 500 };
      const ways = coastlinesFor(b);
      const whole = seaAreas(ways, square(b));
      assertValid(whole, b);
      tiles++;
      seaArea += totalArea(footprints(whole));
      // 5 cm either side of each mapped coast segment in the tile (away from other coast and the edges)
      for (const w of ways) {
        for (let i = 0; i + 3 < w.points.length; i += 2) {
          const [ax, ay, bx, by] = w.points.slice(i, i + 4);
          const len = Math.hypot(bx - ax, by - ay);
          if (len < 1) continue;
          const mx = (ax + bx) / 2,
            my = (ay + by) / 2,
            rx = ((by - ay) / len) * 0.05,
            ry = (-(bx - ax) / len) * 0.05;
          if (mx < x + 1 || mx > x + 499 || my < y + 1 || my > y + 499) continue;
          const clear = ways.every((o) => {
            for (let k = 0; k + 3 < o.points.length; k += 2) {
              if (o === w && k === i) continue;
              if (distanceToSegment(mx, my, o.points.slice(k, k + 4)) < 0.2) return false;
            }
            return true;
          });
          if (!clear) continue;
          assert.ok(inSea(whole, mx + rx, my + ry), `sea right of ${w.id} at ${mx.toFixed(1)},${my.toFixed(1)}`);
          assert.ok(!inSea(whole, mx - rx, my - ry), `land left of ${w.id} at ${mx.toFixed(1)},${my.toFixed(1)}`);
        }
      }
      // quarters against the whole tile, where every quarter is within reach of the coastline (farther
      // than 1 km from it a square is land, as we cannot tell: a quarter reaches less far than its tile)
      const quarters = [
        [0, 0],
        [1, 0],
        [0, 1],
        [1, 1],
      ].map(([i, j]) => ({ minX: x + 250 * i, minY: y + 250 * j, maxX: x + 250 * (i + 1), maxY: y + 250 * (j + 1) }));
      const chains = joinCoastlines(ways);
      if (quarters.some((q) => (nearestBoxPoint(chains, q)?.distance ?? Infinity) > 990)) {
        beyondReach++;
        continue;
      }
      const parts = quarters.flatMap((q) => footprints(seaAreas(ways, square(q))));
      const diff = Math.abs(Clipper.areaPaths(Clipper.xor(pathsOf(footprints(whole)), pathsOf(parts), FillRule.NonZero))) / 1e6;
      let tol = 1e-3;
      for (const w of ways) {
        for (let i = 0; i + 3 < w.points.length; i += 2) {
          const [ax, ay, bx, by] = w.points.slice(i, i + 4);
          const cut = clipSegment(ax, ay, bx, by, b);
          if (cut && ((ax - x - 250) * (bx - x - 250) <= 0 || (ay - y - 250) * (by - y - 250) <= 0))
            tol += 1.5e-3 * Math.hypot(cut[2] - cut[0], cut[3] - cut[1]);
        }
      }
      worst = Math.max(worst, diff);
      assert.ok(diff <= tol, `tile ${x},${y}: quarters differ from the tile by ${diff} m² (tolerance ${tol})`);
    }
  }
  console.log(
    `${tiles} tiles of 500 m over Monaco: sea ${(seaArea / 1e6).toFixed(3)} km²; quarters vs tile worst difference ${worst.toExponential(2)} m² (${tiles - beyondReach} tiles compared, ${beyondReach} with a quarter beyond the 1 km reach)`,
  );
});
