import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { buildBuildingPart } from '../../../../../src/geometry/buildings/build-part.ts';
import { ROOF_SHAPES } from '../../../../../src/geometry/buildings/roofs/types.ts';
import { loadRoofs } from '../../../../../src/geometry/buildings/roofs/index.ts';
import { benchRoofs } from '../../../../support/bench-roofs.ts';
import { inspectMesh } from '../../../../../src/geometry/mesh-checks.ts';
import { normalizeFootprint } from '../../../../../src/geometry/ring.ts';
import type { Footprint } from '../../../../../src/geometry/types.ts';

/**
 * Every roof shape on 55 real Monaco footprints picked for awkwardness (courtyards, strong
 * concavity, up to 108 vertices, 34 cm edges, near-straight corners; see the fixture's `source`).
 */
interface Fixture {
  id: string;
  why: string;
  outer: number[];
  holes: number[][];
}
const fixture = JSON.parse(readFileSync(new URL('../../../../fixtures/monaco-footprints.json', import.meta.url), 'utf8')) as { footprints: Fixture[] };
const footprints: { id: string; why: string; footprint: Footprint }[] = fixture.footprints.map((f) => ({
  id: f.id,
  why: f.why,
  footprint: normalizeFootprint(f)!,
}));

before(async () => {
  await loadRoofs();
});

test('the fixture holds the awkward footprints it claims', () => {
  assert.equal(footprints.length, 55);
  assert.ok(footprints.every((f) => f.footprint !== null));
  assert.ok(footprints.filter((f) => f.footprint.holes.length > 0).length >= 10);
  assert.ok(footprints.some((f) => f.footprint.outer.length / 2 >= 100));
});

test('every roof shape on every Monaco fixture footprint is a closed, outward solid at the asked height', () => {
  const table: string[] = [];
  for (const shape of ROOF_SHAPES) {
    const strategies: Record<string, number> = {};
    const fallbacks: string[] = [];
    for (const { id, footprint } of footprints) {
      const part = buildBuildingPart(footprint, { baseZ: 3.21, wallTopZ: 17.654, roof: { shape, height: 4.5 } });
      const r = inspectMesh(part.mesh);
      const label = `${shape} on ${id}`;
      assert.equal(part.meshProblem, undefined, label);
      assert.ok(r.closed && r.degenerate === 0 && r.nonFinite === 0 && r.volume > 0, `${label}: ${JSON.stringify(r)}`);
      let top = -Infinity;
      for (let i = 2; i < part.mesh.positions.length; i += 3) top = Math.max(top, part.mesh.positions[i]);
      const expected = 17.654 + (part.roofShape === 'flat' ? 0 : 4.5);
      assert.ok(Math.abs(top - expected) <= 0.01, `${label}: top ${top}, expected ${expected}`);
      strategies[part.roofStrategy!] = (strategies[part.roofStrategy!] ?? 0) + 1;
      if (part.roofShape !== shape) fallbacks.push(`${id}→${part.roofShape}`);
    }
    // Skeleton roofs never end flat on these footprints, and courtyards keep their shape.
    assert.ok(!strategies.flat || shape === 'flat' || shape === 'skillion', `${shape}: ${JSON.stringify(strategies)}`);
    table.push(`${shape.padEnd(17)} ${JSON.stringify(strategies)}${fallbacks.length ? `  fallbacks: ${fallbacks.length}` : ''}`);
  }
  console.log(table.join('\n'));
});

test('roof building cost per 1,000 Monaco fixture footprints (printed for the record, not asserted)', async () => {
  // A few shapes keep the test short; `npm run bench` measures them all.
  const shapes = ['flat', 'skillion', 'hipped', 'gabled', 'dome'] as const;
  const rows = await benchRoofs(
    footprints.map((f) => f.footprint),
    { shapes },
  );
  console.log(
    rows
      .map(
        (r) =>
          `${r.shape.padEnd(17)} ${String(r.msPer1000).padStart(6)} ms/1000 (skeleton: convex ${r.convexSkeletonMsPer1000}, wavefront ${r.wavefrontSkeletonMsPer1000}, CGAL ${r.skeletonMsPer1000} for ${r.skeletonCalls}) fallbacks ${r.fallbacks}`,
      )
      .join('\n'),
  );
  assert.equal(rows.length, shapes.length);
  assert.ok(rows.every((r) => r.footprints === footprints.length && r.msPer1000 > 0));
});
