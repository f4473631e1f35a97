import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { Clipper, FillRule, type Paths64 } from 'clipper2-ts';
import { buildBuildingPart } from '../../../../src/geometry/buildings/build-part.ts';
import type { RoofShape } from '../../../../src/geometry/buildings/roofs/types.ts';
import { loadRoofs } from '../../../../src/geometry/buildings/roofs/index.ts';
import { normalizeFootprint } from '../../../../src/geometry/ring.ts';
import { ringPath } from '../../../../src/geometry/planar/clipper-paths.ts';
import type { Footprint, IndexedMesh, Ring } from '../../../../src/geometry/types.ts';
import { CAP_FAILED_NOTE, cropPolygon, cropSolids, cutSolid, distanceOutside, type CropPolygon } from '../../../../src/geometry/crop/index.ts';
import { referenceInspectMesh } from '../../../support/checks/reference-mesh-check.ts';
import { footprintArbitrary } from '../../../support/arbitraries/roof-footprints.ts';
import { boundaryPoint, centreAt, cropPolygonArbitrary } from '../../../support/arbitraries/crop.ts';

before(async () => {
  await loadRoofs();
});

/** Area (m²) of a footprint within the polygon, by Clipper on the millimetre grid (independent of the cutter). */
function areaInside(fp: Footprint, ring: Ring): number {
  const subject: Paths64 = [fp.outer, ...fp.holes].map(ringPath);
  const clip: Paths64 = [ringPath(ring)];
  return Clipper.intersect(subject, clip, FillRule.EvenOdd).reduce((a, p) => a + Clipper.area(p), 0) / 1e6;
}

function worstOutside(mesh: IndexedMesh, poly: CropPolygon): number {
  let worst = 0;
  for (let i = 0; i < mesh.positions.length; i += 3) worst = Math.max(worst, distanceOutside(poly, mesh.positions[i], mesh.positions[i + 1]));
  return worst;
}

/** The checks every cut solid must pass: closed, outward, nothing outside by more than 1 mm. */
function assertCutSolid(mesh: IndexedMesh, poly: CropPolygon, label: string): number {
  const r = referenceInspectMesh(mesh);
  assert.ok(r.closed, `${label}: open ${r.openEdges}, repeated ${r.repeatedEdges}`);
  assert.ok(r.volume > 0, `${label}: volume ${r.volume}`);
  assert.equal(r.nonFinite, 0, label);
  const worst = worstOutside(mesh, poly);
  assert.ok(worst <= 0.001, `${label}: ${(worst * 1000).toFixed(2)} mm outside`);
  return r.volume;
}

const ROOFS: RoofShape[] = ['flat', 'hipped', 'gabled', 'pyramidal', 'skillion', 'dome', 'mansard'];

test('cut solids over generated concave and near-collinear polygons: closed, outward, inside, flat volumes exact', () => {
  fc.assert(
    fc.property(
      cropPolygonArbitrary,
      footprintArbitrary(),
      fc.constantFrom(...ROOFS),
      fc.nat(40),
      fc.double({ min: 0, max: 1, noNaN: true }),
      (ring, generated, shape, edge, t) => checkCut(ring, generated, shape, edge, t),
    ),
    { numRuns: 400, seed: 11, endOnFailure: true, includeErrorInReport: true },
  );
});

/** One generated building across the boundary: cut, closed, inside, never grown; flat ones hold height × footprint area inside. */
function checkCut(ring: Ring, generated: { kind: string; footprint: Footprint }, shape: RoofShape, edge: number, t: number): void {
  const [x, y] = boundaryPoint(ring, edge, t);
  const rings = centreAt([generated.footprint.outer, ...generated.footprint.holes], x, y);
  const fp = normalizeFootprint({ outer: rings[0], holes: rings.slice(1) });
  if (!fp) return;
  const built = buildBuildingPart(fp, { baseZ: 2, wallTopZ: 14, roof: { shape, height: shape === 'flat' ? 0 : 5 } });
  if (built.meshProblem) return;
  const poly = cropPolygon(ring);
  const cut = cutSolid(built.mesh, poly);
  const inside = areaInside(fp, ring);
  if (!cut) {
    assert.ok(inside < 0.01, `dropped a building with ${inside} m² inside`);
    return;
  }
  assert.ok(cut.closed, `${generated.kind} ${shape}: not capped`);
  const volume = assertCutSolid(cut.mesh, poly, `${generated.kind} ${shape}`);
  const whole = referenceInspectMesh(built.mesh).volume;
  // (coordinates are welded at millimetres: a few hundred m² of surface moved by < 0.5 mm)
  assert.ok(volume <= whole * (1 + 5e-4) + 0.1, `grew: ${volume} > ${whole}`);
  if (built.roofShape === 'flat') {
    const expected = 12 * inside;
    assert.ok(Math.abs(volume - expected) <= 1e-3 * expected + 0.05, `${generated.kind}: volume ${volume}, footprint inside × height ${expected}`);
  }
}

test('a building crossing the boundary several times comes back as one closed solid per piece of volume', () => {
  // a 120 m bar crossed by a comb-shaped polygon six times
  const bar: Footprint = { outer: [0, 0, 120, 0, 120, 10, 0, 10], holes: [] };
  const comb: Ring = [-10, -20, 130, -20, 130, 5, 110, 5, 110, 30, 90, 30, 90, 5, 70, 5, 70, 30, 50, 30, 50, 5, 30, 5, 30, 30, -10, 30];
  const poly = cropPolygon(comb);
  for (const shape of ['flat', 'gabled', 'hipped'] as const) {
    const built = buildBuildingPart(bar, { baseZ: 0, wallTopZ: 9, roof: { shape, height: shape === 'flat' ? 0 : 4 } });
    const cut = cutSolid(built.mesh, poly)!;
    assert.ok(cut.cut && cut.closed, shape);
    const volume = assertCutSolid(cut.mesh, poly, shape);
    if (shape === 'flat') assert.ok(Math.abs(volume - 9 * areaInside(bar, comb)) < 0.05, `${volume}`);
  }
});

test('a courtyard building cut through its courtyard keeps both wings closed, hole walls and all', () => {
  const fp: Footprint = { outer: [0, 0, 20, 0, 20, 20, 0, 20], holes: [[5, 5, 5, 15, 15, 15, 15, 5]] };
  const cases: [string, Ring, number][] = [
    ['straight through the courtyard', [10, -5, 30, -5, 30, 30, 10, 30], 1500],
    ['a notch ending inside the courtyard', [-5, -5, 30, -5, 30, 8, 10, 8, 10, 12, 30, 12, 30, 30, -5, 30], 2800],
    ['a corner of the polygon inside the courtyard', [-5, -5, 10, -5, 10, 10, -5, 10], 10 * (100 - 25)],
  ];
  for (const [label, ring, expected] of cases) {
    const built = buildBuildingPart(fp, { baseZ: 0, wallTopZ: 10, roof: { shape: 'flat', height: 0 } });
    const poly = cropPolygon(ring);
    const cut = cutSolid(built.mesh, poly)!;
    assert.ok(cut.closed, label);
    const volume = assertCutSolid(cut.mesh, poly, label);
    assert.ok(Math.abs(volume - expected) < 0.01, `${label}: ${volume} ≠ ${expected}`);
  }
});

test('a polygon corner standing inside a building (Monaco way/94399528, the reflex vertex of the h1 probe)', () => {
  // the building as the service returned it (Z up, local frame), and the probe's concave polygon
  const vertices = [
    41.169, 2.877, 16, 41.169, 2.877, 0, 42.595, -13.133, 16, 42.595, -13.133, 0, 61.189, -11.488, 16, 61.189, -11.488, 0, 59.868, 3.334, 16, 59.868, 3.334, 0,
    55.026, 4.111, 16, 55.026, 4.111, 0,
  ];
  const indices = [
    6, 8, 4, 7, 5, 9, 8, 0, 2, 9, 3, 1, 8, 2, 4, 9, 5, 3, 1, 3, 2, 1, 2, 0, 3, 5, 4, 3, 4, 2, 5, 7, 6, 5, 6, 4, 7, 9, 8, 7, 8, 6, 9, 1, 0, 9, 0, 8,
  ];
  const poly = cropPolygon([-145.02, -199.991, 145.02, -199.991, 43.505, 0, 145.011, 199.994, -145.011, 199.994]);
  const cut = cutSolid({ positions: Float64Array.from(vertices), indices: Uint32Array.from(indices) }, poly)!;
  assert.ok(cut.cut && cut.closed);
  assertCutSolid(cut.mesh, poly, 'way/94399528');
});

test('wholly inside: the same mesh, unmarked; wholly outside: dropped; cut: marked cropped', () => {
  const box = (x: number, y: number) =>
    buildBuildingPart({ outer: [x, y, x + 10, y, x + 10, y + 10, x, y + 10], holes: [] }, { baseZ: 0, wallTopZ: 5, roof: { shape: 'flat', height: 0 } }).mesh;
  const poly = cropPolygon([0, 0, 100, 0, 100, 100, 0, 100]);
  const items = [
    { mesh: box(40, 40), descriptor: { id: 'in' } },
    { mesh: box(200, 40), descriptor: { id: 'out' } },
    { mesh: box(95, 40), descriptor: { id: 'across', intersectsBoundary: true } },
  ];
  const out = cropSolids(items, poly);
  assert.deepEqual(
    out.map((o) => o.descriptor),
    [{ id: 'in' }, { id: 'across', intersectsBoundary: true, cropped: true }],
  );
  assert.equal(out[0].mesh, items[0].mesh);
  assert.ok(Math.abs(assertCutSolid(out[1].mesh, poly, 'across') - 5 * 5 * 10) < 1e-6);
});

test('thin walls (barriers) along and across the boundary, nearly parallel to it, straddling it by millimetres: closed and inside', () => {
  const d = (a: number, b: number) => fc.double({ min: a, max: b, noNaN: true });
  fc.assert(
    fc.property(
      cropPolygonArbitrary,
      d(0.05, 0.6),
      d(2, 60),
      d(-0.05, 0.05),
      fc.boolean(),
      fc.nat(40),
      d(0, 1),
      d(-1, 1),
      (ring, w, l, angleOff, along, edge, t, shiftFrac) => {
        const n = ring.length / 2,
          i = edge % n,
          j = (i + 1) % n;
        const [x, y] = boundaryPoint(ring, edge, t);
        const base = Math.atan2(ring[2 * j + 1] - ring[2 * i + 1], ring[2 * j] - ring[2 * i]) + (along ? angleOff : Math.PI / 2 + angleOff);
        const ux = Math.cos(base),
          uy = Math.sin(base),
          vx = -uy,
          vy = ux;
        const cx = x + vx * w * shiftFrac,
          cy = y + vy * w * shiftFrac;
        const corner = (a: number, b: number) => [cx + (ux * l * a) / 2 + (vx * w * b) / 2, cy + (uy * l * a) / 2 + (vy * w * b) / 2];
        const fp = normalizeFootprint({ outer: [...corner(-1, -1), ...corner(1, -1), ...corner(1, 1), ...corner(-1, 1)], holes: [] });
        if (!fp) return;
        const wall = buildBuildingPart(fp, { baseZ: 0, wallTopZ: 2, roof: { shape: 'flat', height: 0 } });
        const poly = cropPolygon(ring);
        const cut = cutSolid(wall.mesh, poly);
        if (cut) assertCutSolid(cut.mesh, poly, `wall ${w.toFixed(2)} × ${l.toFixed(1)} m`);
      },
    ),
    { numRuns: 300, seed: 11, endOnFailure: true, includeErrorInReport: true },
  );
});

test('a solid that cannot be closed (an open input) is still cut, and says so in dataNotes', () => {
  const box = buildBuildingPart({ outer: [90, 40, 110, 40, 110, 60, 90, 60], holes: [] }, { baseZ: 0, wallTopZ: 5, roof: { shape: 'flat', height: 0 } }).mesh;
  // drop one wall triangle inside the polygon: the input itself is open
  let hole = -1;
  for (let t = 0; t < box.indices.length && hole < 0; t += 3) {
    const xs = [0, 1, 2].map((j) => box.positions[3 * box.indices[t + j]]);
    if (xs.every((x) => x === 90)) hole = t;
  }
  const open = { positions: box.positions, indices: Uint32Array.from([...box.indices.slice(0, hole), ...box.indices.slice(hole + 3)]) };
  const poly = cropPolygon([0, 0, 100, 0, 100, 100, 0, 100]);
  const [out] = cropSolids([{ mesh: open, descriptor: { id: 'open' } as Record<string, unknown> }], poly);
  assert.equal(out.descriptor.cropped, true);
  assert.deepEqual(out.descriptor.dataNotes, [CAP_FAILED_NOTE]);
  assert.ok(worstOutside(out.mesh, poly) <= 0.001);
});
