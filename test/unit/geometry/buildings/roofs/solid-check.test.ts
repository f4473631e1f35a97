import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { buildBuildingPart } from '../../../../../src/geometry/buildings/build-part.ts';
import { ROOF_SHAPES } from '../../../../../src/geometry/buildings/roofs/types.ts';
import { loadRoofs } from '../../../../../src/geometry/buildings/roofs/index.ts';
import { inspectMesh } from '../../../../../src/geometry/mesh-checks.ts';
import { referenceInspectMesh } from '../../../../support/checks/reference-mesh-check.ts';
import { normalizeFootprint } from '../../../../../src/geometry/ring.ts';
import type { IndexedMesh } from '../../../../../src/geometry/types.ts';
import { footprintArbitrary } from '../../../../support/arbitraries/roof-footprints.ts';

before(async () => {
  await loadRoofs();
});

/** Damages a mesh the way bugs do: drop a triangle, flip one, nudge a (shared) vertex, duplicate one, NaN. */
function damage(mesh: IndexedMesh, how: number, at: number): IndexedMesh {
  const indices = Array.from(mesh.indices);
  const positions = Float64Array.from(mesh.positions);
  const t = (at % (indices.length / 3)) * 3;
  if (how === 0) indices.splice(t, 3);
  if (how === 1) [indices[t + 1], indices[t + 2]] = [indices[t + 2], indices[t + 1]];
  if (how === 2) positions[3 * indices[t]] += 0.01;
  if (how === 3) indices.push(indices[t], indices[t + 1], indices[t + 2]);
  if (how === 4) positions[3 * indices[t] + 2] = Number.NaN;
  return { positions, indices: Uint32Array.from(indices) };
}

test('inspectMesh gives the same verdict as the plain reference judge, on sound and on damaged buildings', () => {
  fc.assert(
    fc.property(footprintArbitrary(), fc.constantFrom(...ROOF_SHAPES), fc.integer({ min: -1, max: 4 }), fc.nat(), ({ footprint: raw }, shape, how, at) => {
      const footprint = normalizeFootprint(raw);
      if (!footprint) return;
      const part = buildBuildingPart(footprint, { baseZ: 0, wallTopZ: 9.87, roof: { shape, height: 3.21 } });
      const mesh = how < 0 ? part.mesh : damage(part.mesh, how, at);
      const a = inspectMesh(mesh),
        b = referenceInspectMesh(mesh);
      assert.deepEqual({ ...a, volume: 0 }, { ...b, volume: 0 });
      if (Number.isFinite(b.volume)) assert.ok(Math.abs(a.volume - b.volume) < 1e-9 * Math.max(1, Math.abs(b.volume)));
      if (how === 0 || how === 1 || how === 3) assert.equal(a.closed, false, 'a dropped, flipped or doubled triangle opens the solid');
      if (how === 4) assert.ok(a.nonFinite > 0);
    }),
    { numRuns: 300 },
  );
});
