import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { assembleMultipolygon, type MemberWay } from '../../../../src/sources/osm/multipolygon.ts';
import { signedArea2 } from '../../../../src/geometry/ring.ts';

/** A rectangle ring with extra collinear points on its edges, counter-clockwise, flat [x, y, …]. */
function rectangleRing(x0: number, y0: number, x1: number, y1: number, extra: number[]): number[] {
  const corners = [
    [x0, y0],
    [x1, y0],
    [x1, y1],
    [x0, y1],
  ];
  const ring: number[] = [];
  for (let e = 0; e < 4; e++) {
    const [ax, ay] = corners[e],
      [bx, by] = corners[(e + 1) % 4];
    ring.push(ax, ay);
    const k = extra[e % extra.length] ?? 0;
    for (let i = 1; i <= k; i++) ring.push(ax + ((bx - ax) * i) / (k + 1), ay + ((by - ay) * i) / (k + 1));
  }
  return ring;
}

function reverse(ring: number[]): number[] {
  const out: number[] = [];
  for (let i = ring.length - 2; i >= 0; i -= 2) out.push(ring[i], ring[i + 1]);
  return out;
}

/** Rotation-independent text of a ring that keeps its direction. */
function canonicalRing(ring: number[]): string {
  const n = ring.length / 2;
  let best = 0;
  for (let i = 1; i < n; i++) {
    if (ring[2 * i] < ring[2 * best] || (ring[2 * i] === ring[2 * best] && ring[2 * i + 1] < ring[2 * best + 1])) best = i;
  }
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(`${ring[2 * ((best + i) % n)]},${ring[2 * ((best + i) % n) + 1]}`);
  return out.join(' ');
}

function canonicalPolygons(polygons: number[][][]): string[] {
  return polygons.map(([outer, ...holes]) => [canonicalRing(outer), ...holes.map(canonicalRing).sort()].join(' | ')).sort();
}

/** Cuts a ring into open ways at the given vertex indices (each way shares its end points with its neighbours). */
function cutRing(ring: number[], cuts: number[]): number[][] {
  const n = ring.length / 2;
  const sorted = [...new Set(cuts.map((c) => c % n))].sort((a, b) => a - b);
  if (sorted.length < 2) sorted.push((sorted[0] + Math.floor(n / 2)) % n);
  sorted.sort((a, b) => a - b);
  const ways: number[][] = [];
  for (let k = 0; k < sorted.length; k++) {
    const from = sorted[k],
      to = sorted[(k + 1) % sorted.length];
    const way: number[] = [];
    for (let i = from; ; i = (i + 1) % n) {
      way.push(ring[2 * i], ring[2 * i + 1]);
      if (i === to && way.length > 2) break;
    }
    ways.push(way);
  }
  return ways;
}

interface Cell {
  inset: number;
  hole: boolean;
  island: boolean;
  extra: number[];
  cuts: number[][];
}

const cellArb = fc.record({
  inset: fc.integer({ min: 0, max: 3 }),
  hole: fc.boolean(),
  island: fc.boolean(),
  extra: fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 4, maxLength: 4 }),
  cuts: fc.array(fc.array(fc.nat(40), { minLength: 1, maxLength: 5 }), { minLength: 3, maxLength: 3 }),
});

/** Expected polygons and the member ways of a scene of disjoint cells, each with an optional hole and an island in it. */
function buildScene(cells: Cell[]): { expected: number[][][]; rings: { ring: number[]; role: string }[] } {
  const expected: number[][][] = [];
  const rings: { ring: number[]; role: string }[] = [];
  cells.forEach((cell, i) => {
    const x = (i % 5) * 100,
      y = Math.floor(i / 5) * 100,
      d = cell.inset;
    const outer = rectangleRing(x + d, y + d, x + 90 - d, y + 90 - d, cell.extra);
    rings.push({ ring: outer, role: 'outer' });
    if (cell.hole) {
      const hole = rectangleRing(x + 20, y + 20, x + 70, y + 70, cell.extra);
      rings.push({ ring: hole, role: 'inner' });
      expected.push([outer, reverse(hole)]);
      if (cell.island) {
        const island = rectangleRing(x + 30, y + 30, x + 60, y + 60, cell.extra);
        rings.push({ ring: island, role: 'outer' });
        expected.push([island]);
      }
    } else expected.push([outer]);
  });
  return { expected, rings };
}

test('multipolygon: rings cut into shuffled, reversed pieces with unreliable roles reassemble to the same polygons', () => {
  fc.assert(
    fc.property(
      fc.array(cellArb, { minLength: 1, maxLength: 8 }),
      fc.array(fc.boolean(), { minLength: 64, maxLength: 64 }),
      fc.array(fc.constantFrom('keep', 'swap', 'empty'), { minLength: 64, maxLength: 64 }),
      fc.nat(),
      (cells, reversals, roleModes, seed) => {
        const { expected, rings } = buildScene(cells);
        let members: MemberWay[] = [];
        rings.forEach(({ ring, role }, r) => {
          const cuts = cells[Math.min(Math.floor(r / 3), cells.length - 1)].cuts[r % 3];
          for (const way of cutRing(ring, cuts)) {
            const k = members.length % 64;
            const mode = roleModes[k];
            const shownRole = mode === 'keep' ? role : mode === 'swap' ? (role === 'outer' ? 'inner' : 'outer') : '';
            members.push({ role: shownRole, coords: reversals[k] ? reverse(way) : way });
          }
        });
        // Deterministic shuffle driven by the generated seed.
        let s = seed;
        members = members
          .map((m) => ({ m, key: (s = (s * 1103515245 + 12345) % 2147483648) }))
          .sort((a, b) => a.key - b.key)
          .map((x) => x.m);
        const result = assembleMultipolygon(members);
        assert.ok(result.ok, 'assembly failed');
        assert.deepEqual(canonicalPolygons(result.polygons), canonicalPolygons(expected));
        for (const [outer, ...holes] of result.polygons) {
          assert.ok(signedArea2(outer) > 0, 'outer ring must be counter-clockwise');
          for (const hole of holes) assert.ok(signedArea2(hole) < 0, 'hole must be clockwise');
        }
      },
    ),
    { numRuns: 200 },
  );
});

test('multipolygon: a missing piece makes the assembly fail instead of guessing', () => {
  fc.assert(
    fc.property(fc.array(fc.nat(40), { minLength: 2, maxLength: 6 }), fc.nat(), (cuts, drop) => {
      const ways = cutRing(rectangleRing(0, 0, 10, 10, [1, 2, 0, 3]), cuts);
      ways.splice(drop % ways.length, 1);
      const result = assembleMultipolygon(ways.map((coords) => ({ role: 'outer', coords })));
      assert.equal(result.ok, false);
      if (!result.ok) assert.equal(result.reason, 'open_ring');
    }),
  );
});

test('multipolygon: two rings touching at one node stay two polygons', () => {
  // Figure eight: squares (0,0)-(1,1) and (1,1)-(2,2) share the node (1,1); each is cut into two ways,
  // listed so that a naive join would walk from the first square into the second one.
  const members: MemberWay[] = [
    { role: 'outer', coords: [0, 0, 1, 0, 1, 1] },
    { role: 'outer', coords: [1, 1, 2, 1, 2, 2] },
    { role: 'outer', coords: [2, 2, 1, 2, 1, 1] },
    { role: 'outer', coords: [1, 1, 0, 1, 0, 0] },
  ];
  const result = assembleMultipolygon(members);
  assert.ok(result.ok);
  assert.equal(result.polygons.length, 2);
  assert.deepEqual(
    result.polygons.map((p) => p.length),
    [1, 1],
  );
});

test('multipolygon: a hole touching its outer at a vertex is still a hole; degenerate rings are counted', () => {
  const outer = [0, 0, 10, 0, 10, 10, 0, 10, 0, 0];
  const hole = [0, 0, 5, 2, 2, 5, 0, 0]; // shares the corner (0,0) with the outer
  const sliver = [20, 20, 21, 21, 20, 20]; // two distinct points
  const result = assembleMultipolygon([
    { role: 'inner', coords: outer }, // wrong role: geometry decides
    { role: '', coords: hole },
    { role: 'outer', coords: sliver },
  ]);
  assert.ok(result.ok);
  assert.equal(result.polygons.length, 1);
  assert.equal(result.polygons[0].length, 2);
  assert.equal(result.degenerateRings, 1);
  assert.equal(result.roleMismatches, 1);
});
