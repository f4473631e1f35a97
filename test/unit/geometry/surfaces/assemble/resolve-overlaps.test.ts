/**
 * resolveOverlaps: properties over the random scenes of test/support/scenes/assemble-scenes.ts (pieces
 * tile clip − buildings without overlaps, every piece valid; no area keeps ground a higher one
 * covers) and examples (a road across a park, ties, thin leftovers, bridge decks, a slanted clip).
 * Meshes and outlines of the pieces are tested in test/unit/geometry/surfaces/assemble/surface-meshes.test.ts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { Clipper, EndType, FillRule, JoinType } from 'clipper2-ts';
import type { Footprint } from '../../../../../src/geometry/types.ts';
import type { SurfaceArea } from '../../../../../src/geometry/surfaces/types.ts';
import { BASE_GROUND_PRIORITY } from '../../../../../src/geometry/surfaces/priority.ts';
import { resolveOverlaps } from '../../../../../src/geometry/surfaces/assemble/resolve-overlaps.ts';
import { area, sceneArb } from '../../../../support/scenes/assemble-scenes.ts';
import { rect } from '../../../../support/scenes/shapes.ts';
import { holds } from '../../../../support/arbitraries/holds.ts';
import { assertValidPolygon, m2, mmPaths as paths, perimeterOf } from '../../../../support/checks/footprints.ts';

/*
 * Tolerances (documented in resolve-overlaps.ts):
 * - pairwise overlap of two pieces < 1e-3 m² + 0.5 mm × the shorter perimeter, and nowhere 2 mm
 *   wide (shrunk by 1 mm it vanishes): the pieces are
 *   Clipper2 output on the millimetre grid and share their boundaries vertex for vertex, except
 *   where Clipper puts a crossing point of two edges on the grid (it moves by up to 1 mm); the
 *   edges into that point tilt, which leaves a wedge under 1 mm wide along them — its area grows
 *   with the edge's length (0.005 m² along a 100 m edge), its width never reaches a millimetre.
 *   Same tolerance for a piece outside the clip or under a building.
 * - total area within 0.1% of area(clip − buildings): the base ground fills the rest and slivers
 *   are merged, nothing is dropped; what differs is those wedges.
 */
const wedgeTolerance = (a: readonly Footprint[], b: readonly Footprint[]) => 1e-3 + 0.5e-3 * Math.min(perimeterOf(a), perimeterOf(b));
let worstOverlap = 0;

// ---------- checks ----------

const areaOf = (fps: readonly Footprint[]) => m2(Clipper.union(paths(fps), FillRule.NonZero));
const intersection = (a: readonly Footprint[], b: readonly Footprint[]) => m2(Clipper.intersect(paths(a), paths(b), FillRule.NonZero));
const minus = (a: readonly Footprint[], b: readonly Footprint[]) => m2(Clipper.difference(paths(a), paths(b), FillRule.NonZero));

// ---------- resolveOverlaps ----------

test('resolveOverlaps: pieces tile clip − buildings without overlaps; every piece valid (fast-check)', () => {
  holds(
    fc.property(sceneArb(true), ({ areas, buildings, clip }) => {
      const out = resolveOverlaps(areas, { cutOut: buildings, clip });
      const groundPieces = out.filter((a) => !a.deck);
      // pairwise: pieces of different areas, and polygons of one area
      for (let i = 0; i < groundPieces.length; i++) {
        const fi = groundPieces[i].footprints;
        for (let p = 0; p < fi.length; p++)
          for (let q = p + 1; q < fi.length; q++) assert.ok(intersection([fi[p]], [fi[q]]) < wedgeTolerance([fi[p]], [fi[q]]), 'polygons of one area overlap');
        for (let j = i + 1; j < groundPieces.length; j++) {
          const overlap = Clipper.intersect(paths(fi), paths(groundPieces[j].footprints), FillRule.NonZero);
          const o = m2(overlap);
          worstOverlap = Math.max(worstOverlap, o);
          assert.ok(o < wedgeTolerance(fi, groundPieces[j].footprints), `areas ${i} and ${j} overlap by ${o} m²`);
          // and whatever overlap there is, is nowhere 2 mm wide: shrunk by 1 mm it is gone
          assert.ok(m2(Clipper.inflatePaths(overlap, -1, JoinType.Miter, EndType.Polygon)) === 0, `areas ${i} and ${j} overlap by more than a hairline`);
        }
      }
      const expected = m2(Clipper.difference(paths([clip]), paths(buildings), FillRule.NonZero));
      const total = groundPieces.reduce((a, g) => a + g.footprints.reduce((s, f) => s + areaOf([f]), 0), 0);
      assert.ok(Math.abs(total - expected) <= 1e-3 * expected + 1e-6, `total ${total} vs clip − buildings ${expected}`);
      for (const a of out) {
        for (const fp of a.footprints) assertValidPolygon(fp, String(a.descriptor.id ?? a.descriptor.type));
        assert.ok(minus(a.footprints, [clip]) < wedgeTolerance(a.footprints, [clip]), 'piece outside the clip');
        if (!a.deck) assert.ok(intersection(a.footprints, buildings) < wedgeTolerance(a.footprints, buildings), 'piece under a building');
      }
      // at most one base ground, last, as specified
      const base = out.filter((a) => a.priority === BASE_GROUND_PRIORITY && a.descriptor.inferred === true);
      assert.ok(base.length <= 1, 'check at line 158');
      if (base.length) {
        assert.equal(out[out.length - 1], base[0]);
        assert.equal(base[0].kind, 'grass');
      }
      // decks: clipped only — they keep all of their area inside the clip
      for (const a of areas.filter((x) => x.deck)) {
        const got = out.find((x) => x.descriptor === a.descriptor || (x.deck === a.deck && x.descriptor.id === a.descriptor.id && x.kind === a.kind));
        const want = intersection(a.footprints, [clip]);
        if (want > 0.5) assert.ok(got && Math.abs(areaOf(got.footprints) - want) < 0.01 * want + 0.05, 'deck lost area');
      }
    }),
    150,
  );
  console.log(`worst pairwise overlap of two pieces: ${worstOverlap.toExponential(2)} m²`);
});

test('resolveOverlaps: an area never keeps ground that a higher one covers (beyond merged slivers) (fast-check)', () => {
  holds(
    fc.property(sceneArb(false), ({ areas, buildings, clip }) => {
      const out = resolveOverlaps(areas, { cutOut: buildings, clip });
      const rankKey = (a: SurfaceArea) => [a.priority, -areaOf(a.footprints)];
      for (const lower of out) {
        if (lower.descriptor.inferred) continue;
        for (const higher of areas) {
          if (higher.descriptor === lower.descriptor) continue;
          const [hp, ha] = rankKey(higher),
            [lp] = rankKey(lower);
          if (!(hp > lp)) continue;
          // slivers (< 5 cm wide) may be merged into a neighbour: bound the overlap by 5 cm × perimeter
          const perimeter = perimeterOf(higher.footprints);
          assert.ok(intersection(lower.footprints, higher.footprints) <= 0.05 * perimeter + 1e-3, `priority ${lp} piece covers priority ${hp} ground (${ha})`);
        }
      }
    }),
    100,
  );
});

const tile: Footprint = { outer: rect(0, 0, 100, 100), holes: [] };

test('resolveOverlaps: a road crosses a park; a building is cut out; the base ground fills the rest', () => {
  const road = area('asphalt', rect(-10, 40, 110, 48), 'way/1');
  const park = area('grass', rect(10, 10, 90, 90), 'way/2');
  const building: Footprint = { outer: rect(20, 60, 30, 70), holes: [] };
  const out = resolveOverlaps([park, road], { cutOut: [building], clip: tile });
  assert.deepEqual(
    out.map((a) => a.descriptor.id ?? 'base'),
    ['way/2', 'way/1', 'base'],
  );
  const [p, r, base] = out;
  assert.ok(Math.abs(areaOf(r.footprints) - 800) < 1e-6, 'road clipped to the tile');
  assert.ok(Math.abs(areaOf(p.footprints) - (6400 - 80 * 8 - 100)) < 1e-6, 'park minus road minus building');
  assert.equal(p.footprints.length, 2, 'the road splits the park in two');
  assert.ok(
    p.footprints.some((f) => f.holes.length === 1),
    'the building is a hole in the park',
  );
  assert.deepEqual(base.descriptor, { type: 'grass', inferred: true });
  assert.equal(base.priority, BASE_GROUND_PRIORITY);
  assert.ok(Math.abs(areaOf(base.footprints) - (10000 - 800 - 6400 + 640)) < 1e-6, 'check at line 211');
});

test('resolveOverlaps: ties go to the smaller area, then to the lower id', () => {
  const big = area('grass', rect(0, 0, 60, 60), 'way/1');
  const small = area('grass', rect(40, 40, 80, 80), 'way/9');
  let out = resolveOverlaps([big, small], { cutOut: [], clip: tile });
  assert.ok(Math.abs(areaOf(out.find((a) => a.descriptor.id === 'way/9')!.footprints) - 1600) < 1e-6, 'smaller keeps all');
  const a = area('grass', rect(0, 0, 50, 50), 'way/2');
  const b = area('grass', rect(25, 25, 75, 75), 'way/10'); // same size; 'way/10' < 'way/2' as strings
  out = resolveOverlaps([a, b], { cutOut: [], clip: tile });
  assert.ok(Math.abs(areaOf(out.find((x) => x.descriptor.id === 'way/10')!.footprints) - 2500) < 1e-6);
  // the input order does not matter
  const again = resolveOverlaps([b, a], { cutOut: [], clip: tile });
  assert.ok(Math.abs(areaOf(again.find((x) => x.descriptor.id === 'way/10')!.footprints) - 2500) < 1e-6);
});

test('resolveOverlaps: a thin leftover is merged into its neighbour, not left as a hairline or a crack', () => {
  const road = area('asphalt', rect(0, 40, 100, 46), 'way/1');
  // land use drawn 2 cm past the road's far edge: landuse − road leaves a 2 cm strip above the road,
  // between the road and a park: too thin for either, it goes to the road
  const landuse = area('grass', rect(0, 0, 100, 46.02), 'way/2');
  const park = area('garden', rect(0, 46.02, 100, 100), 'way/3');
  const out = resolveOverlaps([landuse, road, park], { cutOut: [], clip: tile });
  assert.deepEqual(
    out.map((a) => a.descriptor.id),
    ['way/2', 'way/1', 'way/3'],
    'no base ground: nothing is left uncovered',
  );
  assert.ok(Math.abs(areaOf(out[0].footprints) - 4000) < 1e-6, 'strip opened away from the land use');
  assert.ok(Math.abs(areaOf(out[1].footprints) - 602) < 1e-6, 'the strip went to the road');
  assert.ok(Math.abs(areaOf(out[2].footprints) - 5398) < 1e-6, 'park untouched');
  // without the park the strip is simply part of the base ground beside the road
  const open = resolveOverlaps([landuse, road], { cutOut: [], clip: tile });
  assert.ok(Math.abs(areaOf(open[2].footprints) - 5400) < 1e-6, 'base ground from the road up');
});

test('resolveOverlaps: bridge decks are clipped only, ground areas underneath are untouched', () => {
  const deck = area('asphalt', rect(-20, 45, 120, 55), 'way/5', { deck: { start: { x: -20, y: 50, z: 10 }, end: { x: 120, y: 50, z: 12 } } });
  const river = area('water', rect(0, 30, 100, 70), 'way/6');
  const out = resolveOverlaps([deck, river], { cutOut: [], clip: tile });
  assert.ok(Math.abs(areaOf(out.find((a) => a.descriptor.id === 'way/5')!.footprints) - 1000) < 1e-6);
  assert.ok(Math.abs(areaOf(out.find((a) => a.descriptor.id === 'way/6')!.footprints) - 4000) < 1e-6);
  assert.equal(out.find((a) => a.descriptor.id === 'way/5')!.deck, deck.deck);
});

test('resolveOverlaps: a clip that is tile ∩ polygon; nothing at all gives the base ground alone', () => {
  const clip: Footprint = { outer: [0, 0, 100, 0, 100, 30, 0, 100], holes: [] };
  const out = resolveOverlaps([], { cutOut: [{ outer: rect(10, 10, 20, 20), holes: [] }], clip });
  assert.equal(out.length, 1);
  // a slanted clip side: crossings on it are rounded to the millimetre grid, which shaves off
  // wedges under a millimetre wide (here 0.03 m² along the 122 m side)
  assert.ok(Math.abs(areaOf(out[0].footprints) - (6500 - 100)) < wedgeTolerance(out[0].footprints, [clip]), 'base ground = clip − building');
});
