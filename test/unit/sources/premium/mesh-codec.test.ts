/**
 * A building's meshes through the store's blob and back: descriptors and indices as they were,
 * positions within float32 steps of the anchor offsets (a few µm within 200 m of the anchor).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { decodeBuildingMeshes, encodeBuildingMeshes } from '../../../../src/sources/premium/mesh-codec.ts';

test('meshes round-trip through the blob: descriptors and indices exact, positions within 20 µm', () => {
  const mesh = fc.record({
    points: fc.array(
      fc.tuple(fc.double({ min: -200, max: 200, noNaN: true }), fc.double({ min: -200, max: 200, noNaN: true }), fc.double({ min: -5, max: 80, noNaN: true })),
      {
        minLength: 3,
        maxLength: 40,
      },
    ),
    triangles: fc.array(fc.nat(1000), { minLength: 3, maxLength: 60 }),
    name: fc.string(),
  });
  fc.assert(
    fc.property(
      fc.array(mesh, { minLength: 1, maxLength: 4 }),
      fc.double({ min: -3000, max: 3000, noNaN: true }),
      fc.double({ min: -3000, max: 3000, noNaN: true }),
      (meshes, ax, ay) => {
        const input = meshes.map((m, n) => ({
          mesh: {
            positions: Float64Array.from(m.points.flatMap(([x, y, z]) => [ax + x, ay + y, z])),
            indices: Uint32Array.from(m.triangles.slice(0, 3 * Math.floor(m.triangles.length / 3)).map((i) => i % m.points.length)),
          },
          descriptor: { id: `d:${n}`, buildingName: m.name, surfaces: { roof: [0, 1] } },
        }));
        // a blob at an odd offset, as a row's may be
        const blob = encodeBuildingMeshes(input, ax, ay);
        const shifted = new Uint8Array(blob.length + 1).subarray(1);
        shifted.set(blob);
        const out = decodeBuildingMeshes(shifted, ax, ay);
        assert.equal(out.length, input.length);
        out.forEach((o, n) => {
          assert.deepEqual(o.descriptor, input[n].descriptor);
          assert.deepEqual([...o.mesh.indices], [...input[n].mesh.indices]);
          assert.equal(o.mesh.positions.length, input[n].mesh.positions.length);
          for (let k = 0; k < o.mesh.positions.length; k++) assert.ok(Math.abs(o.mesh.positions[k] - input[n].mesh.positions[k]) < 2e-5);
        });
      },
    ),
  );
});
