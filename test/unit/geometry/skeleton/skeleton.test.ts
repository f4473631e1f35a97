import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { footprintSkeleton, isSkeletonLoaded, loadSkeleton, setExactSkeletonLoader, skeletonOf } from '../../../../src/geometry/skeleton/index.ts';
import { abortOnFirstBuild } from '../../../support/fakes/skeleton-cgal.ts';
import type { FootprintSkeleton } from '../../../../src/geometry/skeleton/types.ts';
import { convexSkeleton } from '../../../../src/geometry/skeleton/convex.ts';
import { planFromSkeleton } from '../../../../src/geometry/buildings/roofs/skeleton-plan.ts';
import { wavefrontSkeleton } from '../../../../src/geometry/skeleton/wavefront.ts';
import { skeletonIsPlausible } from '../../../../src/geometry/skeleton/check.ts';
import { footprintArbitrary } from '../../../support/arbitraries/roof-footprints.ts';
import { readFileSync } from 'node:fs';
import { normalizeFootprint } from '../../../../src/geometry/ring.ts';

before(async () => {
  await loadSkeleton();
});

function nodes(s: FootprintSkeleton): string[] {
  return s.nodeX.map((x, i) => `${x.toFixed(2)},${s.nodeY[i].toFixed(2)},${s.nodeT[i].toFixed(2)}`).sort();
}

test('CGAL: a 10 × 5 rectangle far from the origin has its ridge from (2.5, 2.5) to (7.5, 2.5) at time 2.5', () => {
  const s = footprintSkeleton({ outer: [1000, 2000, 1010, 2000, 1010, 2005, 1000, 2005], holes: [] });
  assert.ok(typeof s !== 'string');
  assert.deepEqual(nodes(s), ['1002.50,2002.50,2.50', '1007.50,2002.50,2.50']);
  assert.equal(s.faces.length, 4);
  // One face per side, [side end, …nodes, side start].
  assert.deepEqual(s.faces.map((f) => [f[0], f[f.length - 1]]).sort(), [
    [0, 3],
    [1, 0],
    [2, 1],
    [3, 2],
  ]);
});

test('CGAL: a courtyard gets faces for the hole sides too', () => {
  const s = footprintSkeleton({ outer: [0, 0, 10, 0, 10, 10, 0, 10], holes: [[3, 3, 3, 7, 7, 7, 7, 3]] });
  assert.ok(typeof s !== 'string');
  assert.equal(s.faces.length, 8);
  assert.equal(s.maxT.toFixed(3), '1.500');
});

test('invalid input is refused before it can abort the WebAssembly instance', () => {
  assert.match(String(footprintSkeleton({ outer: [0, 0, 10, 10, 10, 0, 0, 10], holes: [] })), /not a simple polygon/);
  assert.match(String(footprintSkeleton({ outer: [0, 0, 0, 10, 10, 10, 10, 0], holes: [] })), /orientation/);
  assert.match(String(footprintSkeleton({ outer: [0, 0, 10, 0, 10, 10, 0, 10], holes: [[20, 20, 20, 25, 25, 25]] })), /not a simple polygon/);
});

test('after a CGAL abort a fresh instance is loaded', async () => {
  // clockwise: CGAL asserts and its instance aborts
  setExactSkeletonLoader(
    abortOnFirstBuild([
      [
        [0, 0],
        [0, 10],
        [10, 10],
        [10, 0],
        [0, 0],
      ],
    ]),
  );
  try {
    await loadSkeleton();
    assert.match(String(footprintSkeleton({ outer: [0, 0, 10, 0, 10, 5, 0, 5], holes: [] })), /crashed/);
    assert.equal(isSkeletonLoaded(), false);
    assert.match(String(footprintSkeleton({ outer: [0, 0, 10, 0, 10, 5, 0, 5], holes: [] })), /not loaded/);
    await loadSkeleton();
    assert.ok(typeof footprintSkeleton({ outer: [0, 0, 10, 0, 10, 5, 0, 5], holes: [] }) !== 'string');
  } finally {
    setExactSkeletonLoader(null);
    await loadSkeleton();
  }
});

test('property: the convex fast path agrees with CGAL (same top, same roof plan area)', () => {
  fc.assert(
    fc.property(
      fc.array(fc.double({ min: 1, max: 3, noNaN: true }), { minLength: 3, maxLength: 20 }),
      fc.double({ min: 3, max: 40, noNaN: true }),
      fc.double({ min: 3, max: 40, noNaN: true }),
      fc.double({ min: -300, max: 300, noNaN: true }),
      (weights, rx, ry, shift) => {
        const total = weights.reduce((a, b) => a + b, 0);
        let acc = 0;
        const outer = weights.flatMap((w) => {
          const t = (acc / total) * 2 * Math.PI;
          acc += w;
          return [shift + rx * Math.cos(t), ry * Math.sin(t)];
        });
        const fp = normalizeFootprint({ outer, holes: [] });
        if (!fp) return;
        const mine = convexSkeleton(fp);
        const cgal = footprintSkeleton(fp);
        assert.ok(mine, 'a convex footprint has a fast-path skeleton');
        assert.ok(typeof cgal !== 'string', String(cgal));
        // The reference itself must be usable: CGAL's skeleton of a near-regular polygon (several
        // simultaneous events) can fail to make a plan, e.g. a regular pentagon on a 6.55 × 3.37 m
        // ellipse; such a case says nothing about the fast path (which is checked on it below too).
        fc.pre(Number.isFinite(cgal.maxT) && typeof planFromSkeleton(fp, cgal, { gables: false }) !== 'string');
        assert.ok(Math.abs(mine.maxT - cgal.maxT) < 1e-3 * Math.max(1, cgal.maxT), `${mine.maxT} vs ${cgal.maxT}`);
        // Both give valid hipped plans; the highest node sits at the same place (when it is unique).
        const a = planFromSkeleton(fp, mine, { gables: false }),
          b = planFromSkeleton(fp, cgal, { gables: false });
        assert.ok(typeof a !== 'string', String(a));
        assert.ok(typeof b !== 'string', String(b));
      },
    ),
    { numRuns: 200 },
  );
});

test('the convex fast path declines concave footprints and courtyards', () => {
  assert.equal(convexSkeleton({ outer: [0, 0, 10, 0, 10, 4, 4, 4, 4, 10, 0, 10], holes: [] }), null);
  assert.equal(convexSkeleton({ outer: [0, 0, 10, 0, 10, 10, 0, 10], holes: [[3, 3, 3, 7, 7, 7, 7, 3]] }), null);
});

test('gables: on an L the two wing ends become gables; a square stays a pyramid', () => {
  const l = normalizeFootprint({ outer: [0, 0, 14, 0, 14, 6, 6, 6, 6, 14, 0, 14], holes: [] })!;
  const sk = footprintSkeleton(l);
  assert.ok(typeof sk !== 'string');
  const plan = planFromSkeleton(l, sk, { gables: true });
  assert.ok(typeof plan !== 'string');
  assert.deepEqual(plan.gableSides.sort(), [1, 4]); // sides (14,0)→(14,6) and (6,14)→(0,14)
  const square = normalizeFootprint({ outer: [0, 0, 10, 0, 10, 10, 0, 10], holes: [] })!;
  const sq = planFromSkeleton(square, convexSkeleton(square)!, { gables: true });
  assert.ok(typeof sq !== 'string');
  assert.deepEqual(sq.gableSides, []);
});

/** Every node of `a` has a node of `b` within 2 cm (position and time). */
function covered(a: FootprintSkeleton, b: FootprintSkeleton): boolean {
  return a.nodeX.every((x, i) => b.nodeX.some((x2, j) => Math.hypot(x - x2, a.nodeY[i] - b.nodeY[j], a.nodeT[i] - b.nodeT[j]) < 0.02));
}

test("property: the double-precision wavefront finds CGAL's skeleton on concave footprints and courtyards", async () => {
  let checked = 0,
    declined = 0,
    noReference = 0;
  await fc.assert(
    fc.asyncProperty(footprintArbitrary(['L', 'T', 'U', 'star', 'courtyard', 'chamfered', 'wobbly']), async ({ footprint: raw }) => {
      if (!isSkeletonLoaded()) await loadSkeleton(); // a fresh instance after an abort on an earlier run
      const fp = normalizeFootprint(raw);
      if (!fp) return;
      const cgal = footprintSkeleton(fp);
      // The reference must exist: CGAL (float32 input) aborts or gives up on ~1 in 50,000 of these,
      // T footprints with exactly collinear arms and a stem a millimetre off parallel (fast-check
      // seeds 254, 337, 408, 538, 540, 573). That says nothing about the wavefront: counted.
      if (typeof cgal === 'string') {
        noReference++;
        return;
      }
      const wave = wavefrontSkeleton(fp);
      if (!wave || !skeletonIsPlausible(fp, wave)) {
        declined++;
        return;
      } // CGAL takes over: allowed, counted
      checked++;
      // Every CGAL node is found; the wavefront may add nodes in the middle of a straight ridge.
      assert.ok(covered(cgal, wave), 'all CGAL nodes present');
      assert.ok(Math.abs(cgal.maxT - wave.maxT) < 1e-3 * Math.max(1, cgal.maxT));
    }),
    { numRuns: 300 },
  );
  assert.ok(noReference <= 3, `CGAL failed on ${noReference} footprints`);
  assert.ok(declined <= checked / 20, `wavefront declined ${declined} of ${checked + declined}`);
});

test("T footprints whose bar arms are nearly collinear: the wavefront agrees with CGAL or declines, and the roof is CGAL's", () => {
  // After the stem has gone the two arms' sides become neighbours. When the stem's two reflex
  // corners arrive (almost) together, a sliver of a stem side may be left between them, too small
  // for doubles (or CGAL's float32 input) to tell from nothing; with the arms nearly parallel it
  // does not close but runs diagonally on as a ridge: the roof differs by metres either way.
  const cases = [
    // fast-check seed 1823857324: the ends ~1 µm apart at t ≈ 3.856; CGAL keeps a sliver of the
    // left stem side, which runs to (7.68, 17.11) at t ≈ 5.14; taken as a tie the ridge went straight up.
    [2.571, 0.005, 10.283, 0.02, 10.259, 11.974, 12.83, 11.979, 12.797, 28.805, -0.056, 28.78, -0.023, 11.954, 2.547, 11.959],
    // Seed 388: arms exactly collinear in decimals (a tie in doubles), not after CGAL's float32 rounding.
    [1.8, 0.005, 7.2, 0.02, 7.186, 4.8, 8.986, 4.805, 8.966, 11.975, -0.034, 11.95, -0.014, 4.78, 1.786, 4.785],
    // Seed 588: one stem corner splits the other's side 0.4 µm from its end, leaving the sliver.
    [9.235, 0.008, 13.853, 0.012, 13.826, 30.928, 23.061, 30.936, 23.053, 40.02, -0.034, 40, -0.026, 30.916, 9.209, 30.924],
    // Seed 1190: arms on one sloped line with bit-identical directions in doubles; not for CGAL.
    [1.8, 0.001, 7.2, 0.004, 7.197, 4.91, 8.997, 4.911, 8.993, 12.27, -0.007, 12.265, -0.003, 4.906, 1.797, 4.907],
    // Seed 1620: arms at one y, but the stem's sides 1 mm off parallel (taken as opposite): CGAL
    // keeps a zero-length piece of the left stem side between the arms, which runs diagonally.
    [4.19, 0, 7.292, 0, 7.292, 32, 11.482, 32, 11.482, 40, -0.001, 40, -0.001, 32, 4.189, 32],
  ];
  for (const outer of cases) {
    const fp = normalizeFootprint({ outer, holes: [] })!;
    const cgal = footprintSkeleton(fp);
    assert.ok(typeof cgal !== 'string', String(cgal));
    const wave = wavefrontSkeleton(fp);
    if (wave && skeletonIsPlausible(fp, wave)) assert.ok(covered(cgal, wave), `the wavefront finds CGAL's skeleton of ${outer}`);
    const roof = skeletonOf(fp);
    assert.ok(typeof roof !== 'string', String(roof));
    assert.deepEqual(nodes(roof), nodes(cgal));
  }
  // A true tie (arms on one axis-parallel line, so also for CGAL) stays with the wavefront.
  const exact = normalizeFootprint({ outer: [3.6, 0, 5.4, 0, 5.4, 4.8, 9, 4.8, 9, 6, 0, 6, 0, 4.8, 3.6, 4.8], holes: [] })!;
  const wave = wavefrontSkeleton(exact),
    cgal = footprintSkeleton(exact);
  assert.ok(wave && skeletonIsPlausible(exact, wave) && typeof cgal !== 'string' && covered(cgal, wave));
});

test('the wavefront agrees with CGAL on every concave Monaco fixture footprint', () => {
  const fixture = JSON.parse(readFileSync(new URL('../../../fixtures/monaco-footprints.json', import.meta.url), 'utf8')) as {
    footprints: { id: string; outer: number[]; holes: number[][] }[];
  };
  let agreed = 0,
    declined = 0;
  for (const f of fixture.footprints) {
    const fp = normalizeFootprint(f)!;
    if (convexSkeleton(fp)) continue;
    const wave = wavefrontSkeleton(fp);
    if (!wave || !skeletonIsPlausible(fp, wave)) {
      declined++;
      continue;
    }
    const cgal = footprintSkeleton(fp);
    assert.ok(typeof cgal !== 'string');
    assert.ok(covered(cgal, wave), f.id);
    agreed++;
  }
  console.log(`wavefront: ${agreed} agree with CGAL, ${declined} left to CGAL`);
  assert.ok(agreed >= 40 && declined <= 3);
});

test('a skeleton with a wrong node is not plausible', () => {
  const l = normalizeFootprint({ outer: [0, 0, 14, 0, 14, 6, 6, 6, 6, 14, 0, 14], holes: [] })!;
  const good = wavefrontSkeleton(l)!;
  assert.ok(skeletonIsPlausible(l, good));
  const moved = { ...good, nodeX: good.nodeX.map((x, i) => (i === 0 ? x + 0.5 : x)) };
  assert.equal(skeletonIsPlausible(l, moved), false);
  const higher = { ...good, nodeT: good.nodeT.map((t, i) => (i === 0 ? t + 0.5 : t)) };
  assert.equal(skeletonIsPlausible(l, higher), false);
});
