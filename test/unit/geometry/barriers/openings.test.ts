import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cutOpenings } from '../../../../src/geometry/barriers/openings.ts';

test('an opening at a vertex of an open line cuts half its span either side, along the line', () => {
  assert.deepEqual(
    cutOpenings({ points: [0, 0, 10, 0, 20, 0], closed: false }, [{ x: 10, y: 0, half: 1 }]).map((l) => l.points),
    [
      [0, 0, 9, 0],
      [11, 0, 20, 0],
    ],
  );
  assert.deepEqual(
    cutOpenings({ points: [0, 0, 10, 0, 20, 0], closed: false }, [{ x: 0, y: 0, half: 1 }]).map((l) => l.points),
    [[1, 0, 10, 0, 20, 0]],
  );
  // round a corner: the cut follows the line, not a straight distance
  assert.deepEqual(
    cutOpenings({ points: [0, 0, 10, 0, 10, 10], closed: false }, [{ x: 10, y: 0, half: 2 }]).map((l) => l.points),
    [
      [0, 0, 8, 0],
      [10, 2, 10, 10],
    ],
  );
});

test('a ring cut open becomes one open line from one side of the gap round to the other', () => {
  const ring = { points: [0, 0, 10, 0, 10, 10, 0, 10], closed: true };
  assert.deepEqual(cutOpenings(ring, [{ x: 10, y: 0, half: 1 }]), [{ points: [10, 1, 10, 10, 0, 10, 0, 0, 9, 0], closed: false }]);
  assert.deepEqual(cutOpenings(ring, [{ x: 0, y: 0, half: 1 }]), [{ points: [1, 0, 10, 0, 10, 10, 0, 10, 0, 1], closed: false }]);
  assert.deepEqual(
    cutOpenings(ring, [
      { x: 0, y: 0, half: 1 },
      { x: 10, y: 10, half: 2 },
    ]).map((l) => l.points),
    [
      [1, 0, 10, 0, 10, 8],
      [8, 10, 0, 10, 0, 1],
    ],
  );
});

test('openings at no vertex leave the line whole; an opening longer than the line removes it', () => {
  const line = { points: [0, 0, 10, 0], closed: false };
  assert.deepEqual(cutOpenings(line, [{ x: 5, y: 0, half: 1 }]), [line]);
  assert.deepEqual(cutOpenings(line, [{ x: 0, y: 0, half: 20 }]), []);
});

test('withOpenings: gates along the way cut it, a gate across a road does not, a way shorter than its gate stays whole', async () => {
  const { withOpenings } = await import('../../../../src/geometry/barriers/from-osm.ts');
  const tags = {
    kind: 'fence' as const,
    height: 1.5,
    width: 0.05,
    profile: 'box' as const,
    shape: 'strip' as const,
    heightSource: 'default' as const,
    widthSource: 'default' as const,
  };
  const fence = { id: 'way/1', tags, lines: [{ points: [0, 0, 10, 0, 20, 0], closed: false }], filled: false };
  const gate = (along: boolean, span: number) => ({
    id: 'node/2',
    tags: { ...tags, kind: 'gate' as const },
    lines: [],
    filled: false,
    node: { x: 10, y: 0, span, on: 'way/1', spanSource: 'default', along },
  });
  assert.deepEqual(
    withOpenings(fence, [gate(true, 2)]).lines.map((l) => l.points),
    [
      [0, 0, 9, 0],
      [11, 0, 20, 0],
    ],
  );
  assert.equal(withOpenings(fence, [gate(false, 2)]), fence);
  assert.equal(withOpenings(fence, [gate(true, 60)]), fence);
});
