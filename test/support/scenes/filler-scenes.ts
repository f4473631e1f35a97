/**
 * Small built-up scenes for the filler (src/geometry/surfaces/filler): a street with houses set
 * back from it, a courtyard block, a farm by a country road — and a generator of random quarters
 * (streets, rows of houses with gaps, yards, detached houses), in local metres.
 */
import fc from 'fast-check';
import type { FillerContext, FillerRoad } from '../../../src/geometry/surfaces/filler/paved-zone.ts';
import type { BBox, Footprint } from '../../../src/geometry/types.ts';
import { num, rect } from './shapes.ts';

export const house = (x0: number, y0: number, x1: number, y1: number): Footprint => ({ outer: rect(x0, y0, x1, y1), holes: [] });

/** A 6 m street (3 m half width) along y = 0 from x = -200 to 200, houses 10 m deep set back `setback` m from its edge on both sides, 2 m apart. */
export function street(setback: number): FillerContext {
  const buildings: Footprint[] = [];
  for (let x = -200; x < 200; x += 14) {
    buildings.push(house(x, 3 + setback, x + 12, 13 + setback));
    buildings.push(house(x, -13 - setback, x + 12, -3 - setback));
  }
  return { buildings, roads: [{ points: [-200, 0, 200, 0], halfWidth: 3 }] };
}

/** A block of `side` m around a courtyard: four 12 m deep wings closing a yard of side − 24 m. */
export function courtyardBlock(x: number, y: number, side: number): Footprint[] {
  return [
    house(x, y, x + side, y + 12),
    house(x, y + side - 12, x + side, y + side),
    house(x, y + 12, x + 12, y + side - 12),
    house(x + side - 12, y + 12, x + side, y + side - 12),
  ];
}

/** A random quarter: streets on a grid, rows of houses with gaps along them, some courtyard blocks, some detached houses in big gardens. */
export const quarter = fc
  .record({
    pitch: num(40, 120),
    halfWidth: num(1, 8),
    setback: num(0, 12),
    houses: fc.array(fc.tuple(num(-300, 300), num(-300, 300), num(6, 30), num(6, 20)), { maxLength: 40 }),
    yards: fc.array(fc.tuple(num(-300, 300), num(-300, 300), num(30, 110)), { maxLength: 4 }),
    angle: num(0, Math.PI),
  })
  .map(({ pitch, halfWidth, setback, houses, yards, angle }): FillerContext => {
    const roads: FillerRoad[] = [];
    const c = Math.cos(angle),
      s = Math.sin(angle);
    for (let k = -3; k <= 3; k++) {
      const d = k * pitch;
      roads.push({ points: [-400 * c - d * s, -400 * s + d * c, 400 * c - d * s, 400 * s + d * c], halfWidth });
      roads.push({ points: [d * c + 400 * s, d * s - 400 * c, d * c - 400 * s, d * s + 400 * c], halfWidth });
    }
    const buildings: Footprint[] = [];
    for (const [x, y, w, h] of houses) buildings.push(house(x + setback, y, x + setback + w, y + h));
    for (const [x, y, side] of yards) buildings.push(...courtyardBlock(x, y, side));
    return { buildings, roads };
  });

/** The scene's features that a tile with box `b` reads: buildings whose box meets `b` grown by `pad`, every road (roads are read 150 m around). */
export function readAround(context: FillerContext, b: BBox, pad: number): FillerContext {
  const buildings = context.buildings.filter((f) => {
    const xs = f.outer.filter((_, i) => i % 2 === 0),
      ys = f.outer.filter((_, i) => i % 2 === 1);
    return Math.min(...xs) <= b.maxX + pad && Math.max(...xs) >= b.minX - pad && Math.min(...ys) <= b.maxY + pad && Math.max(...ys) >= b.minY - pad;
  });
  return { buildings, roads: context.roads };
}
