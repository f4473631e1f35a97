/**
 * Random ground scenes for test/surfaces-assemble*.test.ts, around a 100 m clip: surface areas
 * (rotated rectangles, star-shaped polygons, rectangles with a hole; random kinds, some sharing a
 * priority so ties are exercised, optionally bridge decks), buildings to cut out, and a clip that is
 * the tile or the tile cut by a slanted side. Also `holds` (fc.check with the failing assertion's
 * message) and `area`, a one-polygon SurfaceArea for the examples.
 */
import fc from 'fast-check';
import type { Footprint, Ring } from '../../../src/geometry/types.ts';
import type { SurfaceArea, SurfaceKind } from '../../../src/geometry/surfaces/types.ts';
import { SURFACE_KINDS } from '../../../src/geometry/surfaces/types.ts';
import { SURFACE_PRIORITY } from '../../../src/geometry/surfaces/priority.ts';
import { reverseRing } from '../../../src/geometry/ring.ts';
import { num, rect } from './shapes.ts';

// ---------- generators ----------

function rotate(ring: Ring, angle: number, cx: number, cy: number): Ring {
  const c = Math.cos(angle),
    s = Math.sin(angle);
  const out: Ring = [];
  for (let i = 0; i < ring.length; i += 2) {
    const x = ring[i] - cx,
      y = ring[i + 1] - cy;
    out.push(cx + x * c - y * s, cy + x * s + y * c);
  }
  return out;
}

/** A rotated rectangle, a star-shaped polygon or a rectangle with a hole, somewhere around a 100 m clip. */
const polygonArb: fc.Arbitrary<Footprint> = fc.oneof(
  fc
    .record({ x: num(-20, 110), y: num(-20, 110), w: num(1, 60), h: num(1, 60), a: num(0, Math.PI) })
    .map(({ x, y, w, h, a }) => ({ outer: rotate(rect(x, y, x + w, y + h), a, x, y), holes: [] })),
  fc.record({ x: num(-10, 110), y: num(-10, 110), radii: fc.array(num(2, 25), { minLength: 3, maxLength: 9 }), a: num(0, 6) }).map(({ x, y, radii, a }) => ({
    outer: radii.flatMap((r, i) => {
      const t = a + (i / radii.length) * 2 * Math.PI;
      return [x + r * Math.cos(t), y + r * Math.sin(t)];
    }),
    holes: [],
  })),
  fc.record({ x: num(-10, 90), y: num(-10, 90), w: num(8, 50), h: num(8, 50), f: num(0.1, 0.6) }).map(({ x, y, w, h, f }) => ({
    outer: rect(x, y, x + w, y + h),
    holes: [reverseRing(rect(x + w * f * 0.5, y + h * f * 0.5, x + w * (1 - f * 0.5), y + h * (1 - f * 0.5)))],
  })),
);

const kindArb = fc.constantFrom<SurfaceKind>(...SURFACE_KINDS);

const areaArb = (withDecks: boolean): fc.Arbitrary<SurfaceArea> =>
  fc
    .record({
      kind: kindArb,
      footprints: fc.array(polygonArb, { minLength: 1, maxLength: 2 }),
      tie: fc.boolean(),
      id: fc.integer({ min: 1, max: 30 }),
      deck: withDecks ? fc.option(fc.record({ z0: num(0, 20), z1: num(0, 20) }), { freq: 6 }) : fc.constant(null),
    })
    .map(({ kind, footprints, tie, id, deck }) => ({
      kind,
      // some areas share a priority, so ties (smaller area, then id) are exercised
      priority: tie ? 50 : SURFACE_PRIORITY[kind],
      footprints,
      descriptor: { type: kind, id: `way/${id}` },
      ...(deck ? { deck: { start: { x: 0, y: 50, z: deck.z0 }, end: { x: 100, y: 50, z: deck.z1 } } } : {}),
    }));

const clipArb: fc.Arbitrary<Footprint> = fc.oneof(
  fc.constant<Footprint>({ outer: rect(0, 0, 100, 100), holes: [] }),
  // tile ∩ polygon: a square cut by a slanted side
  num(20, 80).map((c): Footprint => ({ outer: [0, 0, 100, 0, 100, c, 0, 100 - c / 2], holes: [] })),
);

export const sceneArb = (withDecks = false) =>
  fc.record({
    areas: fc.array(areaArb(withDecks), { minLength: 0, maxLength: 14 }),
    buildings: fc.array(
      fc
        .record({ x: num(0, 95), y: num(0, 95), w: num(1, 20), h: num(1, 20), a: num(0, 3) })
        .map(({ x, y, w, h, a }) => ({ outer: rotate(rect(x, y, x + w, y + h), a, x, y), holes: [] })),
      { maxLength: 6 },
    ),
    clip: clipArb,
  });

export const area = (kind: SurfaceKind, outer: Ring, id: string, extra: Partial<SurfaceArea> = {}): SurfaceArea => ({
  kind,
  priority: SURFACE_PRIORITY[kind],
  footprints: [{ outer, holes: [] }],
  descriptor: { type: kind, id },
  ...extra,
});
