import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { buildBuildingPart } from '../../../../../src/geometry/buildings/build-part.ts';
import { ROOF_SHAPES, type RoofShape, type RoofSpec } from '../../../../../src/geometry/buildings/roofs/types.ts';
import { buildRoof, loadRoofs } from '../../../../../src/geometry/buildings/roofs/index.ts';
import { MeshBuilder } from '../../../../../src/geometry/mesh-builder.ts';
import { inspectMesh } from '../../../../../src/geometry/mesh-checks.ts';
import { normalizeFootprint } from '../../../../../src/geometry/ring.ts';
import type { Footprint, IndexedMesh, Ring } from '../../../../../src/geometry/types.ts';
import { footprintArbitrary } from '../../../../support/arbitraries/roof-footprints.ts';

before(async () => {
  await loadRoofs();
});

const roofParams = fc.record({
  wallTopZ: fc.double({ min: 0, max: 120, noNaN: true }),
  wallHeight: fc.double({ min: 2, max: 40, noNaN: true }),
  height: fc.double({ min: 0.3, max: 15, noNaN: true }),
  direction: fc.option(fc.double({ min: 0, max: 360, noNaN: true }), { nil: undefined }),
  orientation: fc.option(fc.constantFrom('along' as const, 'across' as const), { nil: undefined }),
});

function maxZ(mesh: IndexedMesh): number {
  let m = -Infinity;
  for (let i = 2; i < mesh.positions.length; i += 3) m = Math.max(m, mesh.positions[i]);
  return m;
}

/** Directed edges used by one triangle only, as "x,y,z>x,y,z" at millimetres. */
function openEdges(mesh: IndexedMesh): string[] {
  const p = mesh.positions;
  const key = (i: number) => `${Math.round(p[3 * i] * 1000)},${Math.round(p[3 * i + 1] * 1000)},${Math.round(p[3 * i + 2] * 1000)}`;
  const edges = new Set<string>();
  for (let t = 0; t < mesh.indices.length; t += 3) {
    const v = [key(mesh.indices[t]), key(mesh.indices[t + 1]), key(mesh.indices[t + 2])];
    for (let k = 0; k < 3; k++) edges.add(`${v[k]}>${v[(k + 1) % 3]}`);
  }
  return [...edges]
    .filter((e) => {
      const [a, b] = e.split('>');
      return !edges.has(`${b}>${a}`);
    })
    .sort();
}

/** The wall-top edges of rings (ring order) in the same spelling as openEdges. */
function ringEdges(rings: Ring[], z: number): string[] {
  const key = (x: number, y: number) => `${Math.round(x * 1000)},${Math.round(y * 1000)},${Math.round(z * 1000)}`;
  const out: string[] = [];
  for (const r of rings) {
    const n = r.length / 2;
    for (let i = 0; i < n; i++) {
      const j = (i + 1) % n;
      out.push(`${key(r[2 * i], r[2 * i + 1])}>${key(r[2 * j], r[2 * j + 1])}`);
    }
  }
  return out.sort();
}

/** Every vertex of `original` appears in `used` in order, and every extra vertex of `used` lies on a side of `original` (±1 mm). */
function isRefinementOf(used: Ring, original: Ring): boolean {
  const n = original.length / 2,
    m = used.length / 2;
  let start = -1;
  for (let k = 0; k < m; k++) if (used[2 * k] === original[0] && used[2 * k + 1] === original[1]) start = k;
  if (start < 0) return false;
  let i = 0;
  for (let step = 0; step < m; step++) {
    const k = (start + step) % m;
    const x = used[2 * k],
      y = used[2 * k + 1];
    if (x === original[2 * (i % n)] && y === original[2 * (i % n) + 1]) {
      i++;
      continue;
    }
    const a = (i - 1 + n) % n,
      b = i % n;
    const ax = original[2 * a],
      ay = original[2 * a + 1],
      bx = original[2 * b],
      by = original[2 * b + 1];
    const l = Math.hypot(bx - ax, by - ay);
    if (Math.abs((bx - ax) * (y - ay) - (by - ay) * (x - ax)) / l > 0.001) return false;
  }
  return i === n;
}

/** Builds one part and asserts the solid and its roof; returns the construction used. */
function checkPart(
  shape: RoofShape,
  footprint: Footprint,
  params: { wallTopZ: number; wallHeight: number; height: number; direction?: number; orientation?: 'along' | 'across' },
): string {
  const roof: RoofSpec = { shape, height: params.height, direction: params.direction, orientation: params.orientation };
  const part = buildBuildingPart(footprint, { baseZ: params.wallTopZ - params.wallHeight, wallTopZ: params.wallTopZ, roof });
  const report = inspectMesh(part.mesh);
  assert.equal(part.meshProblem, undefined);
  assert.ok(report.closed, `closed: ${JSON.stringify(report)} ${part.roofStrategy}`);
  assert.equal(report.degenerate, 0, `degenerate: ${part.roofStrategy}`);
  assert.equal(report.nonFinite, 0);
  assert.ok(report.volume > 0, 'outward');
  const top = maxZ(part.mesh);
  const limit = params.wallTopZ + (part.roofShape === 'flat' ? 0 : params.height);
  assert.ok(top <= limit + 0.01, `${part.roofStrategy} reaches ${top}, above ${limit}`);
  assert.ok(top >= limit - 0.01, `${part.roofStrategy} reaches only ${top} of ${limit}`);

  // The roof alone (the same construction: no solid check rejected the first choice): its open
  // boundary is exactly the wall top along the rings it reports, which follow the footprint.
  const mesh = new MeshBuilder();
  const result = buildRoof(mesh, footprint, params.wallTopZ, roof);
  assert.equal(result.strategy, part.roofStrategy);
  const rings = [result.rings.outer, ...result.rings.holes];
  assert.deepEqual(openEdges(mesh.build()), ringEdges(rings, params.wallTopZ));
  assert.ok(isRefinementOf(result.rings.outer, footprint.outer), 'outer wall-top ring follows the footprint');
  result.rings.holes.forEach((h, k) => assert.ok(isRefinementOf(h, footprint.holes[k]), 'hole wall-top ring follows the footprint'));
  return result.strategy;
}

for (const shape of ROOF_SHAPES) {
  test(`${shape} roofs are closed, outward, as high as asked and meet the wall top on generated footprints`, () => {
    const fallbacks: Record<string, number> = {};
    fc.assert(
      fc.property(footprintArbitrary(), roofParams, ({ footprint: raw }, params) => {
        const footprint = normalizeFootprint(raw);
        if (!footprint) return;
        const used = checkPart(shape, footprint, params);
        fallbacks[used] = (fallbacks[used] ?? 0) + 1;
      }),
      { numRuns: 200 },
    );
    console.log(`${shape}: ${JSON.stringify(fallbacks)}`);
  });
}

const rect = normalizeFootprint({ outer: [0, 0, 12, 0, 12, 7, 0, 7], holes: [] })!;
const lShape = normalizeFootprint({ outer: [0, 0, 14, 0, 14, 6, 6, 6, 6, 14, 0, 14], holes: [] })!;
const courtyard = normalizeFootprint({ outer: [0, 0, 30, 0, 30, 20, 0, 20], holes: [[8, 6, 8, 14, 22, 14, 22, 6]] })!;

test('every shape is built as itself on a rectangle', () => {
  for (const shape of ROOF_SHAPES) {
    const part = buildBuildingPart(rect, { baseZ: 0, wallTopZ: 10, roof: { shape, height: 3 } });
    assert.equal(part.roofShape, shape);
    assert.equal(part.roofFallback, undefined);
  }
});

test('an L-shaped gabled roof has a gable at the end of each wing and a valley, not one ridge over everything', () => {
  const part = buildBuildingPart(lShape, { baseZ: 0, wallTopZ: 10, roof: { shape: 'gabled', height: 3 } });
  assert.equal(part.roofStrategy, 'gabled/skeleton');
  const p = part.mesh.positions;
  const tops: string[] = [];
  for (let i = 0; i < p.length; i += 3) if (Math.abs(p[i + 2] - 13) < 1e-6) tops.push(`${p[i]},${p[i + 1]}`);
  // Ridge ends on the two wing-end sides (x = 14 at y = 3, y = 14 at x = 3), meeting at (3, 3).
  assert.deepEqual([...new Set(tops)].sort(), ['14,3', '3,14', '3,3'].sort());
});

test('a courtyard building gets a roof around the courtyard', () => {
  for (const shape of ['hipped', 'gabled', 'mansard', 'dome'] as const) {
    const part = buildBuildingPart(courtyard, { baseZ: 0, wallTopZ: 10, roof: { shape, height: 3 } });
    assert.equal(part.roofShape, shape);
    assert.ok(part.roofStrategy?.endsWith('/skeleton'), `${shape}: ${part.roofStrategy}`);
  }
});

test('roof:direction is the direction the slope faces; the ridge runs across it', () => {
  // Skillion facing north: the low eave is the north side (y = 7), the high side the south (y = 0).
  const skillion = buildBuildingPart(rect, { baseZ: 0, wallTopZ: 10, roof: { shape: 'skillion', height: 2, direction: 0 } });
  const zAt = (mesh: IndexedMesh, x: number, y: number) => {
    let best = -Infinity;
    for (let i = 0; i < mesh.positions.length; i += 3) if (mesh.positions[i] === x && mesh.positions[i + 1] === y) best = Math.max(best, mesh.positions[i + 2]);
    return best;
  };
  assert.equal(zAt(skillion.mesh, 0, 7), 10);
  assert.equal(zAt(skillion.mesh, 0, 0), 12);
  // Gabled with slopes facing east and west: the ridge runs north–south, across the 12 m side.
  const gabled = buildBuildingPart(rect, { baseZ: 0, wallTopZ: 10, roof: { shape: 'gabled', height: 2, direction: 90 } });
  assert.equal(zAt(gabled.mesh, 6, 0), 12);
  assert.equal(zAt(gabled.mesh, 6, 7), 12);
  // Default: ridge along the longest side.
  const along = buildBuildingPart(rect, { baseZ: 0, wallTopZ: 10, roof: { shape: 'gabled', height: 2 } });
  assert.equal(zAt(along.mesh, 0, 3.5), 12);
  assert.equal(zAt(along.mesh, 12, 3.5), 12);
  const across = buildBuildingPart(rect, { baseZ: 0, wallTopZ: 10, roof: { shape: 'gabled', height: 2, orientation: 'across' } });
  assert.equal(zAt(across.mesh, 6, 0), 12);
});

test('a roof too low to build is flat and says so', () => {
  const part = buildBuildingPart(rect, { baseZ: 0, wallTopZ: 10, roof: { shape: 'hipped', height: 0 } });
  assert.equal(part.roofShape, 'flat');
  assert.match(part.roofFallback ?? '', /too small/);
});

test('shapes that need one apex fall back on a U-shaped footprint, and say why', () => {
  const u = normalizeFootprint({ outer: [0, 0, 20, 0, 20, 14, 14, 14, 14, 6, 6, 6, 6, 14, 0, 14], holes: [] })!;
  const pyramid = buildBuildingPart(u, { baseZ: 0, wallTopZ: 10, roof: { shape: 'pyramidal', height: 3 } });
  assert.equal(pyramid.roofShape, 'hipped');
  assert.match(pyramid.roofFallback ?? '', /pyramidal roof not built/);
  const onion = buildBuildingPart(u, { baseZ: 0, wallTopZ: 10, roof: { shape: 'onion', height: 3 } });
  assert.equal(onion.roofShape, 'dome');
});
