import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { Clipper, ClipType, FillRule, PolyTree64, type Path64, type Paths64 } from 'clipper2-ts';
import type { Footprint, Ring } from '../../../../../src/geometry/types.ts';
import { piecesFromTree } from '../../../../../src/geometry/planar/pieces.ts';
import { restoreFarHoles, splitFarHoles } from '../../../../../src/geometry/surfaces/assemble/far-holes.ts';

// A cut of a polygon with many holes sweeps only the outer ring and the holes near the cutters
// (far-holes.ts): the pieces must be those of the whole sweep, far holes in the right piece.

const rect = (x0: number, y0: number, x1: number, y1: number, ccw: boolean): Path64 => {
  const p = [
    { x: x0, y: y0 },
    { x: x1, y: y0 },
    { x: x1, y: y1 },
    { x: x0, y: y1 },
  ];
  return ccw ? p : p.reverse();
};

function differencePieces(paths: Paths64, quads: Paths64): Footprint[] {
  const tree = new PolyTree64();
  Clipper.booleanOpWithPolyTree(ClipType.Difference, paths, quads, tree, FillRule.NonZero);
  return piecesFromTree(tree);
}

/** Rings rotated to their least vertex, holes sorted, pieces sorted: the same pieces whatever the order Clipper wrote them in. */
function normal(pieces: readonly Footprint[]): string[] {
  const rot = (r: Ring) => {
    let m = 0;
    for (let i = 2; i < r.length; i += 2) if (r[i] < r[m] || (r[i] === r[m] && r[i + 1] < r[m + 1])) m = i;
    return [...r.slice(m), ...r.slice(0, m)].join(',');
  };
  return pieces.map((f) => `${rot(f.outer)}|${f.holes.map(rot).sort().join('|')}`).sort();
}

function localCut(paths: Paths64, quads: Paths64): Footprint[] | null {
  const split = splitFarHoles(
    paths,
    quads.map((q) => Clipper.getBounds(q)),
  );
  if (!split) return null;
  const pieces = differencePieces(split.near, quads);
  return restoreFarHoles(pieces, split.far) ? pieces : null;
}

test('far holes: a grid of holes, cut by random strips, gives the pieces of the whole sweep', () => {
  fc.assert(
    fc.property(
      fc.array(
        fc.record({
          x: fc.integer({ min: -200, max: 10_200 }),
          y: fc.integer({ min: -200, max: 10_200 }),
          w: fc.integer({ min: 20, max: 12_000 }),
          h: fc.integer({ min: 20, max: 400 }),
          tall: fc.boolean(),
        }),
        { minLength: 1, maxLength: 4 },
      ),
      (strips) => {
        const paths: Paths64 = [rect(0, 0, 10_000, 10_000, true)];
        for (let i = 0; i < 6; i++) for (let j = 0; j < 6; j++) paths.push(rect(500 + 1_600 * i, 500 + 1_600 * j, 1_300 + 1_600 * i, 1_300 + 1_600 * j, false));
        const quads = strips.map((s) => (s.tall ? rect(s.x, s.y, s.x + s.h, s.y + s.w, true) : rect(s.x, s.y, s.x + s.w, s.y + s.h, true)));
        const local = localCut(paths, quads);
        if (!local) return;
        assert.deepEqual(normal(local), normal(differencePieces(paths, quads)));
      },
    ),
    { numRuns: 300, seed: 8 },
  );
});

test('far holes: a piece cut free inside another (a ring of cuts) keeps its own holes', () => {
  const paths: Paths64 = [rect(0, 0, 10_000, 10_000, true)];
  for (let i = 0; i < 10; i++) paths.push(rect(200 + 300 * i, 200, 400 + 300 * i, 400, false));
  paths.push(rect(4_500, 4_500, 5_500, 5_500, false)); // inside the ring cut below
  paths.push(rect(8_000, 8_000, 9_000, 9_000, false)); // outside it
  const ring = [
    rect(3_000, 3_000, 7_000, 3_100, true),
    rect(3_000, 6_900, 7_000, 7_000, true),
    rect(3_000, 3_000, 3_100, 7_000, true),
    rect(6_900, 3_000, 7_000, 7_000, true),
  ];
  const local = localCut(paths, ring);
  assert.ok(local, 'the holes away from the ring are left out of the sweep');
  assert.equal(local.length, 2);
  assert.deepEqual(normal(local), normal(differencePieces(paths, ring)));
});

test('far holes: a hole touching the outer ring at a corner stays in the sweep', () => {
  const paths: Paths64 = [
    [
      { x: 0, y: 0 },
      { x: 10_000, y: 0 },
      { x: 10_000, y: 5_000 },
      { x: 10_000, y: 10_000 },
      { x: 0, y: 10_000 },
    ],
  ];
  for (let i = 0; i < 10; i++) paths.push(rect(200 + 300 * i, 200, 400 + 300 * i, 400, false));
  const corner: Path64 = [
    { x: 10_000, y: 5_000 },
    { x: 9_000, y: 5_500 },
    { x: 9_000, y: 4_500 },
  ]; // shares a vertex with the outer ring
  paths.push(corner);
  const split = splitFarHoles(paths, [Clipper.getBounds(rect(100, 100, 200, 200, true))]);
  assert.ok(split);
  assert.ok(split.near.includes(corner));
  assert.ok(!split.far.includes(corner));
});
