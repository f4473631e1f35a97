import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cutOpenings } from '../src/geometry/barriers/openings.ts';

test('an opening at a vertex of an open line cuts half its span either side, along the line', () => {
  assert.deepEqual(cutOpenings({ points: [0, 0, 10, 0, 20, 0], closed: false }, [{ x: 10, y: 0, half: 1 }]).map((l) => l.points), [[0, 0, 9, 0], [11, 0, 20, 0]]);
  assert.deepEqual(cutOpenings({ points: [0, 0, 10, 0, 20, 0], closed: false }, [{ x: 0, y: 0, half: 1 }]).map((l) => l.points), [[1, 0, 10, 0, 20, 0]]);
  // round a corner: the cut follows the line, not a straight distance
  assert.deepEqual(cutOpenings({ points: [0, 0, 10, 0, 10, 10], closed: false }, [{ x: 10, y: 0, half: 2 }]).map((l) => l.points), [[0, 0, 8, 0], [10, 2, 10, 10]]);
});

test('a ring cut open becomes one open line from one side of the gap round to the other', () => {
  const ring = { points: [0, 0, 10, 0, 10, 10, 0, 10], closed: true };
  assert.deepEqual(cutOpenings(ring, [{ x: 10, y: 0, half: 1 }]), [{ points: [10, 1, 10, 10, 0, 10, 0, 0, 9, 0], closed: false }]);
  assert.deepEqual(cutOpenings(ring, [{ x: 0, y: 0, half: 1 }]), [{ points: [1, 0, 10, 0, 10, 10, 0, 10, 0, 1], closed: false }]);
  assert.deepEqual(cutOpenings(ring, [{ x: 0, y: 0, half: 1 }, { x: 10, y: 10, half: 2 }]).map((l) => l.points), [[1, 0, 10, 0, 10, 8], [8, 10, 0, 10, 0, 1]]);
});

test('openings at no vertex leave the line whole; an opening longer than the line removes it', () => {
  const line = { points: [0, 0, 10, 0], closed: false };
  assert.deepEqual(cutOpenings(line, [{ x: 5, y: 0, half: 1 }]), [line]);
  assert.deepEqual(cutOpenings(line, [{ x: 0, y: 0, half: 20 }]), []);
});
