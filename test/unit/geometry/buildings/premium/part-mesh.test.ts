/**
 * The premium part mesh (src/geometry/buildings/premium/part-mesh.ts) over generated gable-roofed
 * houses given the way real LoD2 files give them: separate roof, wall and ground surfaces with
 * corners a fraction of a millimetre apart, repeated points, rings in either direction, a wall
 * split where the roof is not (T-junctions), and often no ground surface. After repair every house
 * is a closed, outward, non-degenerate solid with its roof, walls and floor where they were.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { buildPartMesh, type PartMesh } from '../../../../../src/geometry/buildings/premium/part-mesh.ts';
import type { PremiumSurface } from '../../../../../src/geometry/buildings/premium/input.ts';
import { inspectMesh } from '../../../../../src/geometry/mesh-checks.ts';

interface House {
  width: number;
  depth: number;
  eaves: number;
  ridge: number;
  angle: number;
  x0: number;
  y0: number;
}

interface Damage {
  /** Jitter of every corner, each surface its own (metres, under half the weld tolerance per axis). */
  jitter: number[];
  floor: boolean;
  reversed: boolean[];
  /** Index of a point to repeat in each surface's ring (mod its length). */
  repeat: number[];
  /** Where a long wall is cut in two (0 = not cut). */
  cut: number;
}

const houseArb: fc.Arbitrary<House> = fc.record({
  width: fc.double({ min: 4, max: 30, noNaN: true }),
  depth: fc.double({ min: 4, max: 20, noNaN: true }),
  eaves: fc.double({ min: 2.5, max: 20, noNaN: true }),
  ridge: fc.double({ min: 0.5, max: 8, noNaN: true }),
  angle: fc.double({ min: 0, max: 2 * Math.PI, noNaN: true }),
  x0: fc.double({ min: -500, max: 500, noNaN: true }),
  y0: fc.double({ min: -500, max: 500, noNaN: true }),
});

const damageArb: fc.Arbitrary<Damage> = fc.record({
  jitter: fc.array(fc.double({ min: -2.5e-4, max: 2.5e-4, noNaN: true }), { minLength: 64, maxLength: 64 }),
  floor: fc.boolean(),
  reversed: fc.array(fc.boolean(), { minLength: 8, maxLength: 8 }),
  repeat: fc.array(fc.nat(), { minLength: 8, maxLength: 8 }),
  cut: fc.oneof(fc.constant(0), fc.double({ min: 0.2, max: 0.8, noNaN: true })),
});

/** The house's surfaces in the local frame, each ring as its producer might have written it. */
function houseSurfaces(h: House, d: Damage): PremiumSurface[] {
  const c = Math.cos(h.angle),
    s = Math.sin(h.angle);
  const at = (u: number, v: number, z: number): number[] => [h.x0 + u * c - v * s, h.y0 + u * s + v * c, z];
  const W = h.width,
    D = h.depth,
    E = h.eaves,
    R = E + h.ridge;
  // corners: ground a b c d (anticlockwise from above), eaves a' b' c' d', ridge m (over a–d side) and n (over b–c)
  const a = [0, 0],
    b = [W, 0],
    cc = [W, D],
    dd = [0, D];
  const g = (p: number[]) => at(p[0], p[1], 0);
  const e = (p: number[]) => at(p[0], p[1], E);
  const m = at(0, D / 2, R),
    n = at(W, D / 2, R);
  const surfaces: { role: PremiumSurface['role']; ring: number[][] }[] = [
    { role: 'roof', ring: [e(a), e(b), n, m] },
    { role: 'roof', ring: [e(cc), e(dd), m, n] },
    { role: 'wall', ring: [g(b), g(cc), e(cc), n, e(b)] },
    { role: 'wall', ring: [g(dd), g(a), e(a), m, e(dd)] },
    { role: 'wall', ring: [g(cc), g(dd), e(dd), e(cc)] },
  ];
  if (d.cut > 0) {
    // the front wall as two pieces: their shared edge ends in the middle of the roof's eaves edge and the floor's side
    const k = [W * d.cut, 0];
    surfaces.push({ role: 'wall', ring: [g(a), g(k), e(k), e(a)] }, { role: 'wall', ring: [g(k), g(b), e(b), e(k)] });
  } else surfaces.push({ role: 'wall', ring: [g(a), g(b), e(b), e(a)] });
  if (d.floor) surfaces.push({ role: 'floor', ring: [g(a), g(dd), g(cc), g(b)] });
  let j = 0;
  return surfaces.map((surface, i) => {
    let points = surface.ring.map((p) => p.map((v) => v + d.jitter[j++ % d.jitter.length]));
    const r = d.repeat[i % d.repeat.length] % points.length;
    points = [...points.slice(0, r + 1), points[r], ...points.slice(r + 1)];
    if (d.reversed[i % d.reversed.length]) points.reverse();
    return { role: surface.role, rings: [points.flat()] };
  });
}

function assertSound(part: PartMesh | null): asserts part is PartMesh {
  assert.ok(part, 'a mesh');
  const report = inspectMesh(part.mesh);
  assert.ok(part.sound, part.notes.join('; '));
  assert.ok(report.closed, `closed (${report.openEdges} open, ${report.repeatedEdges} repeated edges)`);
  assert.equal(report.degenerate, 0);
  assert.equal(report.nonFinite, 0);
  assert.ok(report.volume > 0, 'outward');
}

test('generated gable houses with gaps, repeated points, reversed rings, split walls and no floor become closed outward solids', () => {
  fc.assert(
    fc.property(houseArb, damageArb, (house, damage) => {
      const part = buildPartMesh(houseSurfaces(house, damage));
      assertSound(part);
      const report = inspectMesh(part.mesh);
      // the volume of the house: a box and a triangular prism (the weld moves corners by a millimetre at most)
      const volume = house.width * house.depth * (house.eaves + house.ridge / 2);
      assert.ok(
        Math.abs(report.volume - volume) < 2e-3 * (house.width * house.depth + house.width * house.eaves + house.depth * house.eaves) + 1e-3,
        `${report.volume} vs ${volume}`,
      );
      assert.ok(Math.abs(part.minZ) <= 1e-3 && Math.abs(part.maxZ - house.eaves - house.ridge) <= 1e-3);
      const { roof, wall, floor, other } = part.surfaces;
      assert.ok(roof[1] > 0 && wall[1] > 0 && floor[1] > 0, 'roof, walls and floor');
      assert.equal(other[1], 0, 'nothing but a missing floor was open');
      assert.equal(roof[0] + roof[1], wall[0]);
      assert.equal(wall[0] + wall[1], floor[0]);
      assert.equal(floor[0] + floor[1] + other[1], report.triangles);
      if (!damage.floor)
        assert.ok(
          part.notes.some((n) => n.includes('floor(s) added')),
          'a missing floor is said',
        );
      // every roof triangle faces up, every floor triangle down
      const p = part.mesh.positions,
        idx = part.mesh.indices;
      const nz = (t: number) => {
        const [i, j, k] = [3 * idx[3 * t], 3 * idx[3 * t + 1], 3 * idx[3 * t + 2]];
        return (p[j] - p[i]) * (p[k + 1] - p[i + 1]) - (p[j + 1] - p[i + 1]) * (p[k] - p[i]);
      };
      for (let t = roof[0]; t < roof[0] + roof[1]; t++) assert.ok(nz(t) > 0, 'roof faces up');
      for (let t = floor[0]; t < floor[0] + floor[1]; t++) assert.ok(nz(t) < 0, 'floor faces down');
    }),
    { numRuns: 200 },
  );
});

/** A closed box of separate surfaces from x0 to x1 (y 0 to 8), from the ground to `top`. */
function box(x0: number, x1: number, top: number): PremiumSurface[] {
  const g = (x: number, y: number) => [x, y, 0],
    e = (x: number, y: number) => [x, y, top];
  return [
    { role: 'roof', rings: [[...e(x0, 0), ...e(x1, 0), ...e(x1, 8), ...e(x0, 8)]] },
    { role: 'floor', rings: [[...g(x0, 0), ...g(x0, 8), ...g(x1, 8), ...g(x1, 0)]] },
    { role: 'wall', rings: [[...g(x0, 0), ...g(x1, 0), ...e(x1, 0), ...e(x0, 0)]] },
    { role: 'wall', rings: [[...g(x1, 0), ...g(x1, 8), ...e(x1, 8), ...e(x1, 0)]] },
    { role: 'wall', rings: [[...g(x1, 8), ...g(x0, 8), ...e(x0, 8), ...e(x1, 8)]] },
    { role: 'wall', rings: [[...g(x0, 8), ...g(x0, 0), ...e(x0, 0), ...e(x0, 8)]] },
  ];
}

test('two blocks of one building that share a wall become one solid without the inner wall', () => {
  const part = buildPartMesh([...box(0, 10, 6), ...box(10, 20, 6)]);
  assertSound(part);
  assert.ok(Math.abs(inspectMesh(part.mesh).volume - 20 * 8 * 6) < 1e-6);
  assert.ok(
    part.notes.some((n) => n.includes('walls between blocks')),
    part.notes.join('; '),
  );
});

test('a lower block against a taller one: the walls are cut against each other, the taller wall stays above the lower roof', () => {
  fc.assert(
    fc.property(
      fc.double({ min: 2.5, max: 15, noNaN: true }),
      fc.double({ min: 0.5, max: 10, noNaN: true }),
      fc.double({ min: -4e-4, max: 4e-4, noNaN: true }),
      (low, extra, wobble) => {
        // the taller block's wall a fraction of a millimetre off the lower one's, as two surveys meet
        const tall = box(10, 20, low + extra).map((s) => ({ ...s, rings: s.rings.map((r) => r.map((v, i) => (i % 3 === 0 && v === 10 ? v + wobble : v))) }));
        const part = buildPartMesh([...box(0, 10, low), ...tall]);
        assertSound(part);
        const volume = inspectMesh(part.mesh).volume;
        const expected = 10 * 8 * low + 10 * 8 * (low + extra);
        // welding moves a face by a millimetre at most: 160 m² of roofs and floors by 1 mm
        assert.ok(Math.abs(volume - expected) < 0.2, `${volume} vs ${expected}`);
      },
    ),
    { numRuns: 100 },
  );
});

test('a gable roof overhanging its walls is cut back to the ground outline and closes', () => {
  fc.assert(
    fc.property(houseArb, fc.double({ min: 0.1, max: 1, noNaN: true }), (h, o) => {
      const [W, D, E, R] = [h.width, h.depth, h.eaves, h.eaves + h.ridge];
      const slope = h.ridge / (D / 2);
      const at = (x: number, y: number, z: number) => [x, y, z];
      const low = E - o * slope;
      const surfaces: PremiumSurface[] = [
        // roof sheets reaching o past every wall
        { role: 'roof', rings: [[...at(-o, -o, low), ...at(W + o, -o, low), ...at(W + o, D / 2, R), ...at(-o, D / 2, R)]] },
        { role: 'roof', rings: [[...at(W + o, D + o, low), ...at(-o, D + o, low), ...at(-o, D / 2, R), ...at(W + o, D / 2, R)]] },
        { role: 'wall', rings: [[...at(0, 0, 0), ...at(W, 0, 0), ...at(W, 0, E), ...at(0, 0, E)]] },
        { role: 'wall', rings: [[...at(W, D, 0), ...at(0, D, 0), ...at(0, D, E), ...at(W, D, E)]] },
        { role: 'wall', rings: [[...at(W, 0, 0), ...at(W, D, 0), ...at(W, D, E), ...at(W, D / 2, R), ...at(W, 0, E)]] },
        { role: 'wall', rings: [[...at(0, D, 0), ...at(0, 0, 0), ...at(0, 0, E), ...at(0, D / 2, R), ...at(0, D, E)]] },
        { role: 'floor', rings: [[...at(0, 0, 0), ...at(0, D, 0), ...at(W, D, 0), ...at(W, 0, 0)]] },
      ];
      const part = buildPartMesh(surfaces);
      assertSound(part);
      assert.ok(
        part.notes.some((n) => n.startsWith('roof overhangs cut back')),
        part.notes.join('; '),
      );
      assert.ok(Math.abs(inspectMesh(part.mesh).volume - W * D * (E + h.ridge / 2)) < 0.01 * W * D);
      assert.ok(Math.abs(part.maxZ - R) <= 1e-3);
    }),
    { numRuns: 100 },
  );
});

test('what cannot be closed is said, not dropped: a lone wall with a fin', () => {
  // three faces on one edge and nothing else: no solid encloses them
  const part = buildPartMesh([
    { role: 'wall', rings: [[0, 0, 0, 10, 0, 0, 10, 0, 5, 0, 0, 5]] },
    { role: 'wall', rings: [[0, 0, 0, 0, 0, 5, 0, 10, 5, 0, 10, 0]] },
    { role: 'wall', rings: [[0, 0, 0, -7, -7, 0, -7, -7, 5, 0, 0, 5]] },
  ]);
  assert.ok(part, 'still a mesh');
  assert.equal(part.sound, false);
  assert.ok(
    part.notes.some((n) => n.startsWith('not a closed solid')),
    part.notes.join('; '),
  );
});

test('a surface without area in any plane gives no mesh (the building says so)', () => {
  assert.equal(buildPartMesh([{ role: 'wall', rings: [[0, 0, 0, 1, 0, 0, 2, 0, 0]] }]), null);
});
