import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { mergeDetected, type DetectedPoint } from '../../../../src/geometry/trees/merge-detected.ts';
import { detectedRank, proceduralRank, surveyedRank } from '../../../../src/geometry/trees/tree-cap.ts';

const top = (x: number, y: number, height: number, crownDiameter: number, key: number): DetectedPoint => ({ x, y, height, crownDiameter, key });

describe('hybrid: a detected top within its crown radius of a surveyed tree is that tree', () => {
  test('within the crown radius it merges, beyond it stands on its own; the nearest surveyed tree wins', () => {
    const surveyed = [0, 0, 10, 0];
    const { sameAs, measuredBy } = mergeDetected(surveyed, [top(2.9, 0, 15, 6, 1), top(3.1, 30, 15, 6, 2), top(6, 0, 12, 10, 3), top(0, 0.8, 8, 0.5, 4)], 12);
    assert.deepEqual([...sameAs], [0, -1, 1, 0]);
    // tree 0 saw two tops (2.9 m with a 3 m crown radius; 0.8 m within the 1 m floor): the taller measures it
    assert.deepEqual([...measuredBy], [0, 2]);
  });

  test('the same answer whatever the order the tops come in, and wherever the frame origin is', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.double({ min: 0, max: 60, noNaN: true }), fc.double({ min: 0, max: 60, noNaN: true })), { maxLength: 12 }),
        fc.array(
          fc.tuple(
            fc.double({ min: 0, max: 60, noNaN: true }),
            fc.double({ min: 0, max: 60, noNaN: true }),
            fc.integer({ min: 3, max: 40 }),
            fc.double({ min: 1, max: 20, noNaN: true }),
          ),
          { maxLength: 30 },
        ),
        fc.integer({ min: -5000, max: 5000 }),
        (s, d, shift) => {
          const surveyed = s.flat();
          const tops = d.map(([x, y, h, c], k) => top(x, y, h, c, k));
          const a = mergeDetected(surveyed, tops, 12);
          const order = tops.map((_, k) => k).reverse();
          const b = mergeDetected(
            surveyed,
            order.map((k) => tops[k]),
            12,
          );
          assert.deepEqual(
            order.map((k) => a.sameAs[k]),
            [...b.sameAs],
          );
          assert.deepEqual(
            [...a.measuredBy].map((m) => (m < 0 ? -1 : tops[m].key)),
            [...b.measuredBy].map((m) => (m < 0 ? -1 : tops[order[m]].key)),
          );
          const moved = mergeDetected(
            surveyed.map((v) => v + shift),
            tops.map((t) => ({ ...t, x: t.x + shift, y: t.y + shift })),
            12,
          );
          // exact arithmetic moves with the shift up to rounding; compare merges not on a radius boundary
          a.sameAs.forEach((v, k) => {
            if (v >= 0) {
              const t = tops[k];
              const r = Math.max(t.crownDiameter / 2, 1);
              if (Math.hypot(surveyed[2 * v] - t.x, surveyed[2 * v + 1] - t.y) < r - 1e-6) assert.ok(moved.sameAs[k] >= 0);
            }
          });
        },
      ),
      { numRuns: 200, seed: 3 },
    );
  });
});

describe('cap ranks', () => {
  test('surveyed before detected before procedural; detected tallest first, equal heights ordered by the cell', () => {
    assert.ok(surveyedRank(0.999) < detectedRank(999, 0) && detectedRank(1, 0.999) < proceduralRank(0));
    assert.ok(detectedRank(30, 0.9) < detectedRank(29.999, 0));
    assert.ok(detectedRank(12, 0.1) < detectedRank(12, 0.2));
    for (const h of [0, 1, 3.5, 80, 2000]) assert.ok(detectedRank(h, 0.5) >= 1 && detectedRank(h, 0.5) < 2);
  });
});
