/** surfaceParts: ranges that partition the triangles split the mesh by role; anything else leaves it whole, so no writer loses or doubles a triangle. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { compactPart, splitBySurface, surfaceParts } from '../../../../src/export/formats/surface-parts.ts';
import type { ExportMesh } from '../../../../src/export/scene.ts';
import { boxMesh } from '../../../support/scenes/export-scenes.ts';

const withSurfaces = (surfaces: unknown): ExportMesh => {
  const m = boxMesh('p:1', 'building', 0, 0, 0, 4, 3, 5); // 12 triangles
  return { ...m, descriptor: { ...m.descriptor, surfaces } };
};

test('ranges in role order split the mesh; empty roles give no part; the parts are views of the indices', () => {
  const m = withSurfaces({ roof: [0, 2], wall: [2, 8], floor: [10, 2], other: [12, 0] });
  const parts = surfaceParts(m);
  assert.deepEqual(
    parts.map((p) => [p.kind, p.role, p.indices.length / 3]),
    [
      ['buildingRoof', 'roof', 2],
      ['buildingWall', 'wall', 8],
      ['buildingFloor', 'floor', 2],
    ],
  );
  assert.deepEqual([...parts[1].indices], [...m.indices.subarray(6, 30)]);
  assert.equal(parts[0].indices.buffer, m.indices.buffer);
});

test('ranges that overlap, leave a gap, overrun, or are not whole numbers leave the mesh whole with its own kind and colour', () => {
  const bad = [
    { roof: [0, 6], wall: [5, 7] },
    { roof: [0, 5], wall: [6, 6] },
    { roof: [0, 13] },
    { roof: [0, 2], wall: [2, 9] },
    { roof: [0, 1.5], wall: [1.5, 10.5] },
    { roof: [0, 12], wall: 'x' },
    'all roof',
    null,
    undefined,
  ];
  for (const surfaces of bad) {
    const m = { ...withSurfaces(surfaces), colour: [0.1, 0.2, 0.3] as [number, number, number] };
    assert.deepEqual(
      surfaceParts(m).map((p) => [p.kind, p.role, p.indices.length, p.colour]),
      [['building', null, 36, [0.1, 0.2, 0.3]]],
      JSON.stringify(surfaces),
    );
  }
  // listed out of order is fine as long as they partition the triangles
  assert.equal(surfaceParts(withSurfaces({ roof: [10, 2], wall: [0, 10] })).length, 2);
});

test('property: split parts hold every triangle once, each compacted to the corners it uses', () => {
  fc.assert(
    fc.property(fc.array(fc.nat(12), { minLength: 3, maxLength: 3 }), (cuts) => {
      const [a, b, c] = [...cuts].sort((x, y) => x - y);
      const m = withSurfaces({ roof: [0, a], wall: [a, b - a], floor: [b, c - b], other: [c, 12 - c] });
      const split = splitBySurface(m);
      assert.equal(
        split.reduce((n, p) => n + p.indices.length / 3, 0),
        12,
      );
      const corners = (pos: Float64Array, ix: Uint32Array) => [...ix].map((i) => [pos[3 * i], pos[3 * i + 1], pos[3 * i + 2]].join(','));
      assert.deepEqual(
        split.flatMap((p) => corners(p.positions, p.indices)),
        corners(m.positions, m.indices),
      );
      for (const p of split) {
        assert.equal(new Set(p.indices).size, p.positions.length / 3, 'only used vertices');
        assert.equal(p.descriptor.surfaces, undefined);
        assert.match(p.id, /^p:1#(roof|wall|floor|other)$/);
      }
    }),
  );
  assert.deepEqual(compactPart(new Float64Array([0, 0, 0, 1, 1, 1, 2, 2, 2]), new Uint32Array([2, 0, 2])), {
    positions: new Float64Array([2, 2, 2, 0, 0, 0]),
    indices: new Uint32Array([0, 1, 0]),
  });
});
