import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { CANDIDATE_CELL, FILL_MIN_SPACING, forestFill, type FillArea, type FillSite } from '../../../../src/geometry/trees/forest-fill.ts';
import { fillRuleOf } from '../../../../src/geometry/trees/fill-areas.ts';
import { PointBlocker } from '../../../../src/geometry/trees/point-index.ts';
import { capThreshold, ditherUnit, proceduralRank, surveyedRank } from '../../../../src/geometry/trees/tree-cap.ts';
import { fineUnit, hashInts } from '../../../../src/geometry/trees/hash.ts';
import { TreeCap } from '../../../../src/features/instances/tree-cap.ts';
import type { BBox } from '../../../../src/geometry/types.ts';

/** A forest polygon (a star-shaped ring around a centre, so it is simple) somewhere within 2 km of the origin. */
const polygonArb = fc.record({
  cx: fc.double({ min: -2000, max: 2000, noNaN: true }),
  cy: fc.double({ min: -2000, max: 2000, noNaN: true }),
  radii: fc.array(fc.double({ min: 20, max: 120, noNaN: true }), { minLength: 5, maxLength: 12 }),
});

const ruleArb = fc.constantFrom<Record<string, string>>(
  { landuse: 'forest' },
  { natural: 'wood', leaf_type: 'needleleaved' },
  { natural: 'scrub' },
  { landuse: 'orchard' },
  { leisure: 'park', trees: 'yes' },
);

function ring(p: { cx: number; cy: number; radii: number[] }): number[] {
  const out: number[] = [];
  p.radii.forEach((r, k) => {
    const a = (2 * Math.PI * k) / p.radii.length;
    out.push(p.cx + r * Math.cos(a), p.cy + r * Math.sin(a));
  });
  return out;
}

const areasArb = fc
  .array(fc.record({ polygon: polygonArb, tags: ruleArb }), { minLength: 1, maxLength: 3 })
  .map((list) => list.map((a, n): FillArea => ({ id: `way/${n + 1}`, rule: fillRuleOf(a.tags)!, footprints: [{ outer: ring(a.polygon), holes: [] }] })));

function boxOf(areas: FillArea[]): BBox {
  let minX = Infinity,
    minY = Infinity,
    maxX = -Infinity,
    maxY = -Infinity;
  for (const a of areas)
    for (const f of a.footprints)
      for (let k = 0; k < f.outer.length; k += 2) {
        minX = Math.min(minX, f.outer[k]);
        maxX = Math.max(maxX, f.outer[k]);
        minY = Math.min(minY, f.outer[k + 1]);
        maxY = Math.max(maxY, f.outer[k + 1]);
      }
  return { minX, minY, maxX, maxY };
}

const key = (s: FillSite) => `${s.i},${s.j},${s.x},${s.y},${s.area.id}`;
const inHalfOpen = (s: FillSite, b: BBox) => s.x >= b.minX && s.x < b.maxX && s.y >= b.minY && s.y < b.maxY;

test('forest fill is the same whatever the tiling or the box asked for (seeded by the global grid)', () => {
  fc.assert(
    fc.property(
      areasArb,
      fc.integer({ min: 1, max: 5 }),
      fc.double({ min: 7, max: 300, noNaN: true }),
      fc.double({ min: 0, max: 1, noNaN: true }),
      fc.double({ min: 0, max: 1, noNaN: true }),
      fc.integer({ min: 0, max: 1000 }),
      (areas, parts, size, ox, oy, salt) => {
        const b = boxOf(areas);
        const whole = { minX: b.minX - 10, minY: b.minY - 10, maxX: b.maxX + 10, maxY: b.maxY + 10 };
        const blocker = new PointBlocker({
          footprints: [],
          corridors: [{ points: [b.minX, b.minY, b.maxX, b.maxY], halfWidth: 3 }],
          discs: [(b.minX + b.maxX) / 2, b.minY + 10, 8],
        });
        const opts = { salt, blocked: (x: number, y: number) => blocker.blocked(x, y) };
        const all = forestFill(whole, areas, opts)
          .filter((s) => inHalfOpen(s, whole))
          .map(key)
          .sort();
        // a tiling of squares of side `size` anchored anywhere, each keeping the plants in its half-open square
        const x0 = whole.minX - ox * size,
          y0 = whole.minY - oy * size;
        const tiled: string[] = [];
        for (let x = x0; x < whole.maxX; x += size)
          for (let y = y0; y < whole.maxY; y += size) {
            const tile = { minX: x, minY: y, maxX: x + size, maxY: y + size };
            for (const s of forestFill(tile, areas, opts)) if (inHalfOpen(s, tile) && inHalfOpen(s, whole)) tiled.push(key(s));
          }
        assert.deepEqual(tiled.sort(), all);
        assert.ok(parts >= 1);
      },
    ),
    { numRuns: 60 },
  );
});

test('forest fill: every two plants stand at least the minimum spacing apart, inside their area, off obstacles', () => {
  fc.assert(
    fc.property(areasArb, fc.integer({ min: 0, max: 1000 }), (areas, salt) => {
      const b = boxOf(areas);
      const disc = [(b.minX + b.maxX) / 2, (b.minY + b.maxY) / 2, 15];
      const blocker = new PointBlocker({ footprints: [], corridors: [], discs: disc });
      const sites = forestFill(b, areas, { salt, blocked: (x, y) => blocker.blocked(x, y) });
      for (let p = 0; p < sites.length; p++) {
        assert.ok(Math.hypot(sites[p].x - disc[0], sites[p].y - disc[1]) >= disc[2], 'off the obstacle');
        for (let q = p + 1; q < sites.length; q++) {
          const d = Math.hypot(sites[p].x - sites[q].x, sites[p].y - sites[q].y);
          assert.ok(d >= FILL_MIN_SPACING - 1e-9, `plants ${d.toFixed(3)} m apart`);
        }
      }
    }),
    { numRuns: 40 },
  );
});

test('forest fill density follows the rule (a 200 m square of broadleaved forest: ≈ 220 per ha, README)', () => {
  const area: FillArea = {
    id: 'way/1',
    rule: fillRuleOf({ landuse: 'forest', leaf_type: 'broadleaved' })!,
    footprints: [{ outer: [0, 0, 200, 0, 200, 200, 0, 200], holes: [] }],
  };
  const n = forestFill({ minX: 0, minY: 0, maxX: 200, maxY: 200 }, [area], { salt: 1 }).length;
  const expected = 220 * 4;
  assert.ok(Math.abs(n - expected) < 0.05 * expected, `${n} plants, expected about ${expected.toFixed(0)}`);
});

test('cap: at most the cap kept, surveyed first, the dropped spread evenly over the area', () => {
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 1e6 }), fc.double({ min: 0.1, max: 0.9, noNaN: true }), fc.integer({ min: 0, max: 300 }), (salt, share, surveyed) => {
      // 4000 procedural trees on a 400 m × 400 m forest plus `surveyed` mapped trees
      const area: FillArea = {
        id: 'way/1',
        rule: fillRuleOf({ landuse: 'forest', leaf_type: 'needleleaved' })!,
        footprints: [{ outer: [0, 0, 400, 0, 400, 400, 0, 400], holes: [] }],
      };
      const sites = forestFill({ minX: 0, minY: 0, maxX: 400, maxY: 400 }, [area], { salt });
      const ranks = sites.map((s) => proceduralRank(ditherUnit(s.i, s.j, fineUnit(hashInts(s.i, s.j, salt, 2), hashInts(s.i, s.j, salt, 3)))));
      const mapped = Array.from({ length: surveyed }, (_, k) => surveyedRank(fineUnit(hashInts(k, salt, 5), hashInts(k, 9))));
      const cap = surveyed + Math.floor(share * sites.length);
      // two "tiles" handing in their ranks in any order give one threshold
      const half = Math.floor(ranks.length / 2);
      const t = capThreshold([Float64Array.from(ranks.slice(half)), Float64Array.from(mapped), Float64Array.from(ranks.slice(0, half))], cap);
      assert.equal(t, capThreshold([Float64Array.from([...mapped, ...ranks])], cap));
      const kept = ranks.filter((r) => r < t).length + mapped.filter((r) => r < t).length;
      assert.equal(kept, cap);
      assert.ok(
        mapped.every((r) => r < t),
        'surveyed trees kept first',
      );
      const overall = ranks.filter((r) => r < t).length / ranks.length;
      // evenly: every 128 m square (2 × 2 dither periods of 16 × 16 candidate cells) keeps the same share
      const Q = 32 * CANDIDATE_CELL;
      for (let qx = 0; qx < 3; qx++)
        for (let qy = 0; qy < 3; qy++) {
          const inQ = sites.map((s, k) => [s, ranks[k]] as const).filter(([s]) => Math.floor(s.x / Q) === qx && Math.floor(s.y / Q) === qy);
          const keptShare = inQ.filter(([, r]) => r < t).length / inQ.length;
          // the plants are a random (hard-core) subset of the candidate cells, so a square's share is
          // binomial around the overall one: no square may be off by more than 4 standard deviations
          const sd = Math.sqrt((overall * (1 - overall)) / inQ.length);
          assert.ok(
            Math.abs(keptShare - overall) < 4 * sd + 0.005,
            `square ${qx},${qy} keeps ${keptShare.toFixed(3)} vs ${overall.toFixed(3)} overall (sd ${sd.toFixed(3)})`,
          );
        }
    }),
    { numRuns: 30 },
  );
});

test('cap in the pipeline: the kept items are whole JSON items, the lowest ranks, however the tiles split them', () => {
  fc.assert(
    fc.property(
      fc.array(fc.double({ min: 0, max: 2, noNaN: true, maxExcluded: true }), { minLength: 1, maxLength: 60 }),
      fc.integer({ min: 1, max: 70 }),
      fc.integer({ min: 1, max: 5 }),
      (ranks, cap, tiles) => {
        const cut = new TreeCap(cap);
        const enc = new TextEncoder();
        for (let p = 0; p < tiles; p++) {
          const mine = ranks.map((r, k) => [r, k] as const).filter(([, k]) => k % tiles === p);
          const items = mine.map(([r, k]) => enc.encode(JSON.stringify({ type: 'tree', k, r })));
          const ends: number[] = [];
          let n = 0;
          for (const i of items) {
            n += i.length;
            ends.push(n);
          }
          const json = new Uint8Array(n);
          let pos = 0;
          for (const i of items) {
            json.set(i, pos);
            pos += i.length;
          }
          cut.take({ count: mine.length, json, ranks: Float64Array.from(mine.map(([r]) => r)), ends: Uint32Array.from(ends) });
        }
        const out = cut.finish();
        const kept = JSON.parse(`[${new TextDecoder().decode(out.json)}]`) as { k: number; r: number }[];
        assert.equal(kept.length, out.count);
        assert.equal(out.count + out.dropped, ranks.length);
        assert.ok(kept.length <= cap);
        const sorted = [...ranks].sort((a, b) => a - b);
        const want = ranks.length <= cap ? ranks.length : sorted.filter((r) => r < sorted[cap]).length;
        assert.equal(kept.length, want);
        const maxKept = Math.max(...kept.map((i) => i.r), -1);
        assert.ok(ranks.every((r, k) => kept.some((i) => i.k === k) || r >= maxKept));
      },
    ),
    { numRuns: 200 },
  );
});
