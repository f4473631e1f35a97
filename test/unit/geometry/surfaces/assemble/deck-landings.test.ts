/**
 * Deck landings over generated ramps (any direction) and sloping ground: every landing lies on its deck; where the
 * deck's top is within half the clearance of the ground a landing covers it, and on the deck
 * outside the landings its top is at least the clearance (less a millimetre of rounding) away from
 * the ground. A deck high above the ground has none.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { Clipper, FillRule, PointInPolygonResult } from 'clipper2-ts';
import { deckLandings, LANDING_CLEARANCE } from '../../../../../src/geometry/surfaces/assemble/deck-landings.ts';
import { deckHeight } from '../../../../../src/geometry/surfaces/deck-height.ts';
import { pathsOf } from '../../../../../src/geometry/planar/pieces.ts';
import type { SurfaceArea } from '../../../../../src/geometry/surfaces/types.ts';
import type { Footprint } from '../../../../../src/geometry/types.ts';

/** A deck strip from (x0, y0) at `angle` (radians from +x), `length` long and `width` wide, rising from `z0` at `grade`. */
function ramp(x0: number, y0: number, length: number, width: number, z0: number, grade: number, angle = 0): SurfaceArea {
  const [ux, uy] = [Math.cos(angle), Math.sin(angle)];
  const at = (along: number, across: number) => [x0 + ux * along - uy * across, y0 + uy * along + ux * across];
  return {
    kind: 'pavement',
    priority: 80,
    footprints: [
      {
        outer: [...at(0, -width / 2), ...at(length, -width / 2), ...at(length, width / 2), ...at(0, width / 2)].map((v) => Math.round(v * 1000) / 1000),
        holes: [],
      },
    ],
    descriptor: { type: 'pavement', id: 'way/1' },
    deck: { start: { x: x0, y: y0, z: z0 }, end: { x: x0 + ux * length, y: y0 + uy * length, z: z0 + grade * length } },
  };
}

function covers(landings: readonly Footprint[], x: number, y: number): boolean {
  const p = { x: Math.round(x * 1000), y: Math.round(y * 1000) };
  const inRing = (ring: number[]) => Clipper.pointInPolygon(p, pathsOf([{ outer: ring, holes: [] }])[0]) !== PointInPolygonResult.IsOutside;
  return landings.some((f) => inRing(f.outer) && !f.holes.some(inRing));
}

const slope = fc.double({ min: -0.25, max: 0.25, noNaN: true });

test('landings lie on their deck, cover it where its top is near the ground and leave it where it is not', () => {
  fc.assert(
    fc.property(
      fc.double({ min: -50, max: 50, noNaN: true }),
      fc.double({ min: -50, max: 50, noNaN: true }),
      fc.double({ min: 5, max: 40, noNaN: true }),
      fc.double({ min: 1.5, max: 8, noNaN: true }),
      fc.double({ min: 0.01, max: 0.3, noNaN: true }),
      slope,
      slope,
      fc.double({ min: -0.05, max: 0.05, noNaN: true }),
      fc.double({ min: -Math.PI, max: Math.PI, noNaN: true }),
      (x0, y0, length, width, grade, gx, gy, dz, angle) => {
        const area = ramp(x0, y0, length, width, 10 + dz, grade, angle);
        const [ux, uy] = [Math.cos(angle), Math.sin(angle)];
        const ground = (x: number, y: number) => 10 + gx * (x - x0) + gy * (y - y0);
        const landings = deckLandings([area], ground);
        const deck = pathsOf(area.footprints);
        for (const f of landings) {
          const outside = Clipper.difference(pathsOf([f]), deck, FillRule.NonZero);
          assert.ok(Math.abs(Clipper.areaPaths(outside)) < 1, 'a landing lies on its deck');
        }
        for (let i = 1; i < 40; i++)
          for (let j = 1; j < 8; j++) {
            const along = (length * i) / 40,
              across = -width / 2 + (width * j) / 8;
            const x = x0 + ux * along - uy * across,
              y = y0 + uy * along + ux * across;
            const gap = Math.abs(deckHeight(area.deck!, x, y) - ground(x, y));
            const inLanding = covers(landings, x, y);
            if (gap < LANDING_CLEARANCE / 2) assert.ok(inLanding, `(${x}, ${y}): ${gap} m from the ground, not in a landing`);
            if (!inLanding) assert.ok(gap >= LANDING_CLEARANCE - 1e-3, `(${x}, ${y}): ${gap} m from the ground outside the landings`);
          }
      },
    ),
  );
});

test('a deck high above the ground has no landing; a deck on flat ground at z = 0 lands where its ramp starts', () => {
  assert.deepEqual(
    deckLandings([ramp(0, 0, 30, 4, 6, 0)], () => 0),
    [],
  );
  const landings = deckLandings([ramp(0, 0, 30, 4, 0, 0.06)], () => 0);
  assert.ok(landings.length > 0);
  assert.ok(covers(landings, 0.5, 0) && !covers(landings, 5, 0));
});
