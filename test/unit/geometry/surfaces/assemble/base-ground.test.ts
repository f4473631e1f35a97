/**
 * The base ground built in parts (base-ground.ts) is the same ground as built whole: the parts
 * cover what the whole covers (to the opening's slivers, which go to `removed` either way), they
 * do not overlap one another, and none reaches under a cutter — on generated blocks with shared
 * sides, in a square and in a slanted clip. Split by the filler's paved zone (splitFiller), the
 * paved part and the grass tile the base ground again, whether it was built whole or in parts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { Clipper, FillRule, type Paths64 } from 'clipper2-ts';
import { baseGround, baseParts, splitFiller } from '../../../../../src/geometry/surfaces/assemble/base-ground.ts';
import { sideIndex } from '../../../../../src/geometry/surfaces/assemble/side-index.ts';
import { piecePaths } from '../../../../../src/geometry/planar/pieces.ts';
import type { Footprint } from '../../../../../src/geometry/types.ts';

const S = 1000; // grid units per metre

/** Paths of rectangles in metres; neighbours in a row share a side (as the kept pieces do). */
function blocks(cells: [number, number, number, number][]): Paths64 {
  return cells.map(([x, y, w, h]) => [
    { x: x * S, y: y * S },
    { x: (x + w) * S, y: y * S },
    { x: (x + w) * S, y: (y + h) * S },
    { x: x * S, y: (y + h) * S },
  ]);
}

const area = (paths: Paths64) => Math.abs(Clipper.areaPaths(Clipper.union(paths, FillRule.NonZero))) / (S * S);

function build(clip: Paths64, covered: Paths64, partSides: number): { pieces: Footprint[]; removed: Paths64 } {
  const removed: Paths64 = [];
  const pieces = baseGround(clip, Clipper.getBoundsPaths(clip), covered, 0.05, 0.05, removed, sideIndex([]), partSides);
  return { pieces, removed };
}

const cell = fc.tuple(fc.integer({ min: 0, max: 90 }), fc.integer({ min: 0, max: 90 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 12 }));
/** Blocks of 3 × 4 m cells sharing sides, some cells missing: merged outlines with courtyards and pinched corners. */
const rows = fc
  .array(
    fc.tuple(fc.integer({ min: 0, max: 80 }), fc.integer({ min: 0, max: 80 }), fc.integer({ min: 1, max: 6 }), fc.integer({ min: 1, max: 5 }), fc.integer()),
    { maxLength: 6 },
  )
  .map((bs) =>
    bs.flatMap(([x, y, nx, ny, mask]) => {
      const out: [number, number, number, number][] = [];
      for (let j = 0; j < ny; j++)
        for (let i = 0; i < nx; i++) if (((mask >>> ((j * nx + i) % 31)) & 1) === 1 || (i + j) % 4 === 0) out.push([x + 3 * i, y + 4 * j, 3, 4]);
      return out;
    }),
  );

for (const [name, clip] of [
  [
    'square',
    [
      [
        { x: 0, y: 0 },
        { x: 100 * S, y: 0 },
        { x: 100 * S, y: 100 * S },
        { x: 0, y: 100 * S },
      ],
    ],
  ],
  [
    'slanted',
    [
      [
        { x: 0, y: 10 * S },
        { x: 90 * S, y: 0 },
        { x: 100 * S, y: 95 * S },
        { x: 7 * S, y: 100 * S },
      ],
    ],
  ],
] as [string, Paths64][]) {
  test(`property: the base ground in parts equals the whole one (${name} clip)`, () => {
    fc.assert(
      fc.property(fc.array(cell, { maxLength: 40 }), rows, (loose, joined) => {
        const covered = blocks([...loose, ...joined]);
        const whole = build(clip, covered, 1e9),
          parts = build(clip, covered, 4);
        const partPaths = parts.pieces.map((f) => piecePaths([f]));
        const total = partPaths.reduce((a, p) => a + Math.abs(Clipper.areaPaths(p)) / (S * S), 0);
        // what the opening took off (under 5 cm wide) is small beside any seam: 4 m² bounds it here
        const slack = 4 + area(parts.removed) + area(whole.removed);
        assert.ok(Math.abs(total - area(piecePaths(whole.pieces))) <= slack, `parts ${total} vs whole ${area(piecePaths(whole.pieces))}`);
        assert.ok(Math.abs(total - area(partPaths.flat())) < 1e-6, 'the parts do not overlap');
        if (covered.length) assert.ok(area(Clipper.intersect(partPaths.flat(), covered, FillRule.NonZero)) < 1e-6, 'nothing under a cutter');
      }),
      { numRuns: 150 },
    );
  });
}

for (const [name, partSides] of [
  ['whole', undefined],
  ['in parts', 4],
] as [string, number | undefined][])
  test(`property: the filler split (base ground built ${name}) — paved and grass tile the base ground, the paved part lies in the zone up to slivers`, () => {
    const clip: Paths64 = blocks([[0, 0, 100, 100]]);
    fc.assert(
      fc.property(fc.array(cell, { maxLength: 40 }), rows, fc.array(cell, { minLength: 1, maxLength: 12 }), (loose, joined, zoneCells) => {
        // the base ground as a busy tile builds it, in parts: its polygons then have vertices and
        // sides on the parts' lines
        const covered = blocks([...loose, ...joined]);
        const base = build(clip, covered, partSides ?? 1e9).pieces;
        const zone = blocks(zoneCells.map(([x, y, w, h]) => [x + 0.37, y + 0.21, 1.7 * w, 1.3 * h]));
        const { paved, grass } = splitFiller(base, zone, 0.05, 0.05, Clipper.getBoundsPaths(clip));
        const p = piecePaths(paved),
          g = piecePaths(grass),
          b = piecePaths(base);
        assert.ok(area(Clipper.intersect(p, g, FillRule.NonZero)) < 1e-6, 'paved and grass do not overlap');
        // the opening drops bits under 0.05 m² or 5 cm wide of either part that touch neither (specks)
        assert.ok(Math.abs(area([...p, ...g]) - area(b)) < 0.5, `paved ∪ grass ${area([...p, ...g])} vs base ${area(b)}`);
        assert.ok(area(Clipper.difference([...p, ...g], b, FillRule.NonZero)) < 1e-6, 'nothing outside the base ground');
        // a seam of the parts is an edge of the base ground's polygons, as a tile's edge is: grass
        // narrower than the opening's width between it and the zone goes to the pavement
        const parts = partSides ? (baseParts(Clipper.getBoundsPaths(clip), covered, partSides) ?? []) : [];
        const seams = parts.flatMap((box) =>
          blocks([
            [box.left / S - 0.05, box.top / S - 0.05, 0.1, (box.bottom - box.top) / S + 0.1],
            [box.left / S - 0.05, box.top / S - 0.05, (box.right - box.left) / S + 0.1, 0.1],
          ]),
        );
        const outside = Clipper.difference(p, [...zone, ...seams], FillRule.NonZero);
        assert.ok(area(outside) < 0.5, `paved outside the zone, away from the seams: slivers only (${area(outside)} m²)`);
        if (area(Clipper.intersect(b, zone, FillRule.NonZero)) > 1) assert.ok(paved.length > 0, 'some of the base ground in the zone is paved');
      }),
      { numRuns: 150 },
    );
  });

test("the filler split keeps a polygon whose vertices lie on the lines of the base ground's parts (split in parts by clipper2-ts RectClip, a part's corner was cut off such a polygon: a downtown tile gained 700 m² over its roads)", () => {
  // from a real tile: the polygon passes through points on the lines x = 1250 m and y = 250 m
  // outside the part [1250, 1500] × [250, 500] and around its corner
  const ring = [
    1248.322, 241.318, 1250, 242.249, 1263.969, 250, 1264.032, 250.035, 1279.492, 258.613, 1269.74, 276.199, 1250, 265.247, 1238.569, 258.905, 1243.507, 250,
  ];
  const base: Footprint[] = [{ outer: ring, holes: [] }];
  const zone = blocks([[1255, 240, 10, 40]]);
  const b = piecePaths(base);
  const { paved, grass } = splitFiller(base, zone, 0.05, 0.05, { left: 1000 * S, right: 1500 * S, top: 0, bottom: 500 * S });
  const out = [...piecePaths(paved), ...piecePaths(grass)];
  assert.ok(Math.abs(area(out) - area(b)) < 0.01, `paved ∪ grass ${area(out)} m² vs base ${area(b)} m²`);
  assert.ok(area(Clipper.difference(out, b, FillRule.NonZero)) < 1e-6, 'nothing outside the base ground');
  assert.ok(Math.abs(area(piecePaths(paved)) - area(Clipper.intersect(b, zone, FillRule.NonZero))) < 0.01, 'paved = base ∩ zone');
});
