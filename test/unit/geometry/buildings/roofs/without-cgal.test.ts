import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { buildBuildingPart } from '../../../../../src/geometry/buildings/build-part.ts';
import { ROOF_SHAPES, type RoofShape } from '../../../../../src/geometry/buildings/roofs/types.ts';
import { exactSkeletonStatus, footprintSkeleton, loadSkeleton, setExactSkeletonLoader, skeletonOf } from '../../../../../src/geometry/skeleton/index.ts';
import { wavefrontSkeleton } from '../../../../../src/geometry/skeleton/wavefront.ts';
import { skeletonIsPlausible } from '../../../../../src/geometry/skeleton/check.ts';
import { inspectMesh } from '../../../../../src/geometry/mesh-checks.ts';
import { normalizeFootprint } from '../../../../../src/geometry/ring.ts';
import type { Footprint } from '../../../../../src/geometry/types.ts';
import { footprintArbitrary } from '../../../../support/arbitraries/roof-footprints.ts';
import { cgalAbsent } from '../../../../support/fakes/skeleton-cgal.ts';

/**
 * CGAL (the optional `straight-skeleton` package) absent: the double-precision skeletons decide
 * alone, and the footprints they decline get the next roof of their shape's chain instead — never
 * an open or broken solid, and the fallback says why.
 */

before(async () => {
  setExactSkeletonLoader(cgalAbsent);
  await loadSkeleton();
});

after(() => setExactSkeletonLoader(null));

function assertSolid(fp: Footprint, shape: RoofShape, label: string) {
  const part = buildBuildingPart(fp, { baseZ: 0, wallTopZ: 10, roof: { shape, height: 4 } });
  const r = inspectMesh(part.mesh);
  assert.equal(part.meshProblem, undefined, `${shape} on ${label}`);
  assert.ok(r.closed && r.degenerate === 0 && r.nonFinite === 0 && r.volume > 0, `${shape} on ${label}: ${JSON.stringify(r)}`);
  return part;
}

/** Footprints the wavefront declines (so CGAL would have decided): T shapes with nearly collinear arms, and one past its 600 sides. */
const T_TIES = [
  [2.571, 0.005, 10.283, 0.02, 10.259, 11.974, 12.83, 11.979, 12.797, 28.805, -0.056, 28.78, -0.023, 11.954, 2.547, 11.959],
  [9.235, 0.008, 13.853, 0.012, 13.826, 30.928, 23.061, 30.936, 23.053, 40.02, -0.034, 40, -0.026, 30.916, 9.209, 30.924],
  [4.19, 0, 7.292, 0, 7.292, 32, 11.482, 32, 11.482, 40, -0.001, 40, -0.001, 32, 4.189, 32],
];

function manySidedCourtyard(): Footprint {
  const outer: number[] = [];
  for (let i = 0; i < 700; i++) {
    const a = (2 * Math.PI * i) / 700,
      r = i % 2 === 0 ? 40 : 39;
    outer.push(r * Math.cos(a), r * Math.sin(a));
  }
  return normalizeFootprint({ outer, holes: [[-5, -5, -5, 5, 5, 5, 5, -5]] })!;
}

test('the loader says CGAL is absent, and the exact skeleton says why there is none', () => {
  assert.equal(exactSkeletonStatus(), 'absent');
  assert.match(String(footprintSkeleton(normalizeFootprint({ outer: [0, 0, 10, 0, 10, 5, 0, 5], holes: [] })!)), /not installed/);
});

test('CITY_SKELETON_CGAL=off keeps the installed package unloaded', async () => {
  const before = process.env.CITY_SKELETON_CGAL;
  process.env.CITY_SKELETON_CGAL = 'off';
  try {
    setExactSkeletonLoader(null);
    await loadSkeleton();
    assert.equal(exactSkeletonStatus(), 'absent');
  } finally {
    if (before === undefined) delete process.env.CITY_SKELETON_CGAL;
    else process.env.CITY_SKELETON_CGAL = before;
    setExactSkeletonLoader(cgalAbsent);
    await loadSkeleton();
  }
});

test('the fast skeletons still serve rectangles, L shapes and courtyards', () => {
  for (const outer of [
    [0, 0, 20, 0, 20, 8, 0, 8],
    [0, 0, 14, 0, 14, 6, 6, 6, 6, 14, 0, 14],
  ]) {
    const s = skeletonOf(normalizeFootprint({ outer, holes: [] })!);
    assert.ok(typeof s !== 'string', String(s));
  }
  const courtyard = skeletonOf(normalizeFootprint({ outer: [0, 0, 32, 0, 32, 24, 0, 24], holes: [[9, 7, 9, 16, 21, 16, 21, 7]] })!);
  assert.ok(typeof courtyard !== 'string', String(courtyard));
});

test('footprints the wavefront declines fall back along the roof chain to a closed solid, saying CGAL is not installed', () => {
  const declined = [...T_TIES.map((outer) => normalizeFootprint({ outer, holes: [] })!), manySidedCourtyard()];
  let fellBack = 0;
  for (const [k, fp] of declined.entries()) {
    const wave = wavefrontSkeleton(fp);
    if (wave && skeletonIsPlausible(fp, wave)) continue; // taken as a tie by this build of the wavefront: nothing to show
    assert.match(String(skeletonOf(fp)), /not installed/);
    for (const shape of ROOF_SHAPES) {
      const part = assertSolid(fp, shape, `declined footprint ${k}`);
      if (part.roofShape !== shape) {
        fellBack++;
        assert.match(part.roofFallback ?? '', /not installed/, `${shape} on declined footprint ${k}`);
      }
    }
  }
  assert.ok(fellBack > 0, 'some roof needed the exact skeleton');
  // The courtyard past 600 sides has neither a fast skeleton nor one apex: its hipped roof ends flat.
  const courtyard = assertSolid(manySidedCourtyard(), 'hipped', 'the 700-sided courtyard');
  assert.equal(courtyard.roofShape, 'flat');
  assert.match(courtyard.roofFallback ?? '', /hipped\/skeleton: the exact straight skeleton .* not installed/);
});

test('every roof shape on every Monaco fixture footprint is a closed solid without CGAL', () => {
  const fixture = JSON.parse(readFileSync(new URL('../../../../fixtures/monaco-footprints.json', import.meta.url), 'utf8')) as {
    footprints: { id: string; outer: number[]; holes: number[][] }[];
  };
  for (const f of fixture.footprints) {
    const fp = normalizeFootprint(f)!;
    for (const shape of ROOF_SHAPES) assertSolid(fp, shape, f.id);
  }
});

test('property: every roof shape on generated footprints is a closed solid without CGAL', () => {
  fc.assert(
    fc.property(footprintArbitrary(), fc.constantFrom(...ROOF_SHAPES), ({ kind, footprint }, shape) => {
      const fp = normalizeFootprint(footprint);
      if (fp) assertSolid(fp, shape, kind);
    }),
    { numRuns: 200 },
  );
});
