/**
 * Reversed loops: a ring touching itself around a lobe wound the other way is found (the Monaco
 * sidewalk of way/1019174509 as a cut left it), loops wound like their ring are not, and
 * piecesFromTree rebuilds a piece with one into the polygon without the lobe.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { Clipper, ClipType, FillRule } from 'clipper2-ts';
import { pathRing } from '../../../../src/geometry/planar/clipper-paths.ts';
import { hasReversedLoop } from '../../../../src/geometry/planar/reversed-loops.ts';
import { booleanPieces, netArea, pathsOf } from '../../../../src/geometry/planar/pieces.ts';

/** The sidewalk as the cut by the footway way/693487402 left it: a lobe at (114.628, 32.744) wound clockwise. */
const SIDEWALK = [
  115.015, 30.024, 114.902, 31.678, 114.628, 32.744, 114.634, 32.725, 114.641, 32.696, 114.628, 32.744, 114.578, 32.732, 113.592, 32.455, 114.867, 28.731,
  114.554, 27.933, 114.892, 27.914,
];
const WITHOUT_LOBE = [...SIDEWALK.slice(0, 6), ...SIDEWALK.slice(12)];

test('the sidewalk with its backward lobe has a reversed loop; without it, none', () => {
  assert.equal(hasReversedLoop([SIDEWALK]), true);
  assert.equal(hasReversedLoop([WITHOUT_LOBE]), false);
});

/** The sidewalk before that cut (a needle along its side, a rounding wedge), and the needle the opening cut off beside it. */
const BEFORE = [115.015, 30.024, 114.902, 31.678, 114.379, 33.72, 114.628, 32.746, 113.592, 32.455, 114.867, 28.731, 114.554, 27.933, 114.892, 27.914];
const NEEDLE = [114.641, 32.696, 114.634, 32.725, 114.627, 32.748];

test('piecesFromTree (booleanPieces) rebuilds the piece Clipper writes with the lobe, without it', () => {
  const cut = Clipper.difference(pathsOf([{ outer: BEFORE, holes: [] }]), pathsOf([{ outer: NEEDLE, holes: [] }]), FillRule.NonZero);
  assert.ok(cut.length === 1 && hasReversedLoop([pathRing(cut[0])]), 'Clipper writes the lobe (else this test shows nothing)');
  const pieces = booleanPieces(ClipType.Difference, pathsOf([{ outer: BEFORE, holes: [] }]), pathsOf([{ outer: NEEDLE, holes: [] }]));
  assert.equal(pieces.length, 1);
  assert.equal(hasReversedLoop([pieces[0].outer, ...pieces[0].holes]), false);
  assert.ok(Math.abs(netArea(pieces[0]) - netArea({ outer: BEFORE, holes: [] })) < 5e-3, `${netArea(pieces[0])}`);
});

test('a ring pinched at a vertex into two loops wound like it, and a hole the same way round, have none', () => {
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 50 }), fc.integer({ min: 1, max: 50 }), (a, b) => {
      // two squares of sides a and b (cm) meeting at the origin, one ring counter-clockwise
      const s = a / 100,
        t = b / 100;
      const pinched = [0, 0, s, 0, s, s, 0, s, 0, 0, -t, 0, -t, -t, 0, -t];
      // the same as a hole (clockwise): reversed
      const hole: number[] = [];
      for (let i = pinched.length - 2; i >= 0; i -= 2) hole.push(pinched[i], pinched[i + 1]);
      const outer = [-1, -1, 1, -1, 1, 1, -1, 1];
      return !hasReversedLoop([pinched]) && !hasReversedLoop([outer, hole]) && hasReversedLoop([hole]) && hasReversedLoop([outer, pinched]);
    }),
  );
});
