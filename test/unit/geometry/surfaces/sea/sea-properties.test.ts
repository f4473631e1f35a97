/**
 * seaAreas over random scenes (test/support/scenes/sea-scenes.ts: straight coast, bay, peninsula,
 * islands, harbour) and random squares: the sea is exactly square − land within the grid-wedge
 * tolerance, neighbouring tiles agree, and broken coastlines never put sea on the land side.
 * SEA_RUNS=k runs k times as many cases. Examples are in test/unit/geometry/surfaces/sea/sea-areas.test.ts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { BBox } from '../../../../../src/geometry/types.ts';
import { totalArea } from '../../../../../src/geometry/planar/pieces.ts';
import { seaAreas, type Coastline } from '../../../../../src/geometry/surfaces/sea/index.ts';
import { clipSegment } from '../../../../../src/geometry/surfaces/sea/clip.ts';
import {
  anyScene,
  assertSides,
  assertValid,
  bay,
  boxOfSquare,
  expectedSea,
  harbour,
  peninsula,
  reversePoints,
  seaOf,
  square,
  squareClip,
  waysOf,
  wayCuts,
  wedgeTolerance,
  xorArea,
} from '../../../../support/scenes/sea-scenes.ts';
import { num, rect } from '../../../../support/scenes/shapes.ts';
import { holds } from '../../../../support/arbitraries/holds.ts';

test('property: the sea in a random square is exactly square − land (straight coast, bay, peninsula, islands, harbour)', () => {
  const seen = new Set<string>();
  let worstError = 0;
  holds(
    fc.property(anyScene, squareClip, wayCuts, (s, clip, [cuts, jitter]) => {
      seen.add(s.name);
      const ways = waysOf(s, cuts, jitter);
      const out = seaAreas(ways, clip);
      assertValid(out, clip);
      const got = totalArea(seaOf(out)),
        want = expectedSea(s, clip);
      worstError = Math.max(worstError, Math.abs(got - want));
      const b = boxOfSquare(clip);
      const tol = wedgeTolerance(ways, b, [b.minX, b.maxX], [b.minY, b.maxY]); // joints keep the earlier way's point: the jitter moves nothing
      assert.ok(Math.abs(got - want) <= tol, `${s.name}: sea ${got} m², expected ${want} m² (tolerance ${tol})`);
      assertSides(out, ways, clip, true);
    }),
    300,
    'SEA_RUNS',
  );
  assert.ok(seen.size >= 5, `scenes seen: ${[...seen]}`);
  console.log(`exact sea: worst |sea − (square − land)| ${worstError.toExponential(2)} m² over scenes ${[...seen].sort().join(', ')}`);
});

test('property: neighbouring tiles agree — the sea of four quarter squares unites to the sea of the whole', () => {
  let worst = 0;
  holds(
    fc.property(anyScene, squareClip, wayCuts, num(0.2, 0.8), num(0.2, 0.8), (s, clip, [cuts, jitter], fx, fy) => {
      const ways = waysOf(s, cuts, jitter);
      const b = boxOfSquare(clip);
      const mx = b.minX + fx * (b.maxX - b.minX),
        my = b.minY + fy * (b.maxY - b.minY);
      const quarters = [
        { outer: rect(b.minX, b.minY, mx, my), holes: [] },
        { outer: rect(mx, b.minY, b.maxX, my), holes: [] },
        { outer: rect(b.minX, my, mx, b.maxY), holes: [] },
        { outer: rect(mx, my, b.maxX, b.maxY), holes: [] },
      ];
      const whole = seaOf(seaAreas(ways, clip));
      const parts = quarters.flatMap((q) => seaOf(seaAreas(ways, q)));
      const diff = xorArea(whole, parts);
      const tol = wedgeTolerance(ways, b, [mx], [my]);
      worst = Math.max(worst, diff / tol);
      assert.ok(diff <= tol, `${s.name}: the quarters differ from the whole by ${diff} m² (tolerance ${tol})`);
    }),
    150,
    'SEA_RUNS',
  );
  console.log(`tiling: worst difference between quarters and whole ${(100 * worst).toFixed(1)}% of its tolerance`);
});

test('property: tiling on a finely drawn coast: quarters and whole agree within 1e-3 m²', () => {
  // coast segments of at most 0.5 m: the grid wedges at the cut lines are far below 1e-3 m²
  const near: BBox = { minX: -700, minY: -700, maxX: 700, maxY: 700 };
  const densify = (ways: Coastline[]) =>
    ways.map((w) => {
      const p = w.points,
        out: number[] = [p[0], p[1]];
      for (let i = 0; i + 3 < p.length; i += 2) {
        const cut = clipSegment(p[i], p[i + 1], p[i + 2], p[i + 3], near);
        if (cut) {
          const [, , , , t0, t1] = cut;
          const k = Math.ceil((Math.hypot(p[i + 2] - p[i], p[i + 3] - p[i + 1]) * (t1 - t0)) / 0.5);
          for (let j = 0; j <= k; j++) {
            const t = t0 + ((t1 - t0) * j) / k;
            if (t > 0 && t < 1) out.push(p[i] + (p[i + 2] - p[i]) * t, p[i + 1] + (p[i + 3] - p[i + 1]) * t);
          }
        }
        out.push(p[i + 2], p[i + 3]);
      }
      return { id: w.id, points: out };
    });
  let worst = 0;
  holds(
    fc.property(fc.oneof(bay, harbour, peninsula), fc.tuple(num(-150, 150), num(-150, 150), num(20, 120)), (s, [cx, cy, h]) => {
      const ways = densify(waysOf(s, [], [0]));
      const whole = seaOf(seaAreas(ways, square(cx, cy, h)));
      const parts = [
        [-1, -1],
        [1, -1],
        [-1, 1],
        [1, 1],
      ].flatMap(([sx, sy]) => seaOf(seaAreas(ways, square(cx + (sx * h) / 2, cy + (sy * h) / 2, h / 2))));
      const diff = xorArea(whole, parts);
      worst = Math.max(worst, diff);
      assert.ok(diff <= 1e-3, `${s.name}: quarters differ from the whole by ${diff} m²`);
    }),
    25,
    'SEA_RUNS',
  );
  console.log(`tiling (fine coast): worst difference ${worst.toExponential(2)} m²`);
});

test('property: broken coastlines (ways missing, one drawn the wrong way round) give valid sea, never on the land side of any way', () => {
  let agree = 0,
    runs = 0;
  holds(
    fc.property(
      anyScene,
      squareClip,
      fc.array(num(0, 1), { minLength: 2, maxLength: 6 }),
      fc.nat(),
      fc.option(fc.nat(), { nil: undefined }),
      (s, clip, cuts, drop, reverse) => {
        const all = waysOf(s, cuts, [0]);
        const ways = all.filter((_, i) => all.length < 2 || i !== drop % all.length);
        if (reverse !== undefined && ways.length > 0) {
          const k = reverse % ways.length;
          ways[k] = { id: ways[k].id, points: reversePoints(ways[k].points) };
        }
        const out = seaAreas(ways, clip);
        assertValid(out, clip);
        assertSides(out, ways, clip, false);
        // neighbouring tiles: reported, not required (contradicting data is decided face by face)
        const b = boxOfSquare(clip),
          mx = (b.minX + b.maxX) / 2,
          my = (b.minY + b.maxY) / 2;
        const parts = [rect(b.minX, b.minY, mx, my), rect(mx, b.minY, b.maxX, my), rect(b.minX, my, mx, b.maxY), rect(mx, my, b.maxX, b.maxY)].flatMap((r) =>
          seaOf(seaAreas(ways, { outer: r, holes: [] })),
        );
        runs++;
        if (xorArea(seaOf(out), parts) <= wedgeTolerance(ways, b, [mx], [my])) agree++;
      },
    ),
    300,
    'SEA_RUNS',
  );
  console.log(`broken coastlines: quarters agree with the whole in ${agree} of ${runs} cases`);
});
