/**
 * The paved zone of the filler (src/geometry/surfaces/filler/paved-zone.ts): the ground beside
 * façades, in courtyards and on the verges of a built-up area is paved, a garden beyond reach of
 * its house, a big enclosed green and a country road far from houses keep their grass; and the
 * zone of a tile is that of the whole scene, whatever the tiling, when the tile reads what
 * FILLER_READ_METRES says.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { FILLER_READ_METRES, FILLER_RULES, pavedZone } from '../../../../../src/geometry/surfaces/filler/paved-zone.ts';
import type { BBox, Footprint } from '../../../../../src/geometry/types.ts';
import { pointInRing } from '../../../../../src/geometry/ring.ts';
import { totalArea } from '../../../../../src/geometry/planar/pieces.ts';
import { xorArea } from '../../../../support/scenes/sea-scenes.ts';
import { courtyardBlock, house, quarter, readAround, street } from '../../../../support/scenes/filler-scenes.ts';
import { num } from '../../../../support/scenes/shapes.ts';
import { holds } from '../../../../support/arbitraries/holds.ts';

const BOX: BBox = { minX: -150, minY: -150, maxX: 150, maxY: 150 };
const inZone = (zone: readonly Footprint[], x: number, y: number) => zone.some((f) => pointInRing(x, y, f.outer) && !f.holes.some((h) => pointInRing(x, y, h)));

test('a street: the ground between the sidewalk and the façades is paved, whatever the setback within reach', () => {
  for (const setback of [0.5, 4, 7.5, 15]) {
    const zone = pavedZone(street(setback), BOX);
    for (let x = -100; x <= 100; x += 7) {
      for (const side of [1, -1]) {
        // every point between the road's edge (3 m) and the façades
        for (let d = 3.2; d < 3 + setback; d += 0.7) assert.ok(inZone(zone, x, side * d), `setback ${setback}: (${x}, ${side * d}) is paved`);
      }
    }
  }
});

test('far from any building: a country road keeps its grass verges, a garden beyond the reach of its house is grass', () => {
  const country = { buildings: [house(100, 100, 112, 110)], roads: [{ points: [-150, 0, 150, 0], halfWidth: 3 }] };
  const zone = pavedZone(country, BOX);
  assert.ok(!inZone(zone, 0, 5), 'the verge of a road 90 m from the only house');
  assert.ok(inZone(zone, 106, 95), 'the house front');
  assert.ok(!inZone(zone, 106, 100 - FILLER_RULES.facadeReach - 5), 'the garden beyond reach');
  // the verge of the same road is paved where a house stands near it
  const village = { buildings: [house(0, 10, 12, 20)], roads: country.roads };
  assert.ok(inZone(pavedZone(village, BOX), -20, -5), 'the verge across the road, 25 m from the house');
});

test('courtyards: a yard closed by buildings is paved up to its side, a larger enclosure keeps a green middle', () => {
  const small = pavedZone({ buildings: courtyardBlock(-40, -40, 80), roads: [] }, BOX); // 56 m yard
  assert.ok(inZone(small, 0, 0), 'the middle of a 56 m courtyard');
  const large = pavedZone({ buildings: courtyardBlock(-70, -70, 140), roads: [] }, BOX); // 116 m enclosure
  assert.ok(!inZone(large, 0, 0), 'the middle of a 116 m enclosure');
  assert.ok(inZone(large, 0, -70 + 12 + FILLER_RULES.facadeReach - 0.5), 'within reach of its wings');
  // a courtyard mapped as a building's inner ring is a courtyard too
  const ring: Footprint = { outer: [-40, -40, 40, -40, 40, 40, -40, 40], holes: [[-28, -28, -28, 28, 28, 28, 28, -28]] };
  assert.ok(inZone(pavedZone({ buildings: [ring], roads: [] }, BOX), 0, 0), 'the inner ring of a building');
});

test('no buildings, no paved filler: an empty box or roads alone', () => {
  assert.deepEqual(pavedZone({ buildings: [], roads: [] }, BOX), []);
  assert.deepEqual(pavedZone({ buildings: [], roads: [{ points: [-150, 0, 150, 0], halfWidth: 3 }] }, BOX), []);
});

test('property: any tiling — a tile reading FILLER_READ_METRES around itself gets the zone of the whole scene in its square', () => {
  let worst = 0;
  holds(
    fc.property(quarter, num(-120, 120), num(-120, 120), (scene, mx, my) => {
      const whole = pavedZone(scene, BOX);
      const tiles: BBox[] = [
        { minX: BOX.minX, minY: BOX.minY, maxX: mx, maxY: my },
        { minX: mx, minY: BOX.minY, maxX: BOX.maxX, maxY: my },
        { minX: BOX.minX, minY: my, maxX: mx, maxY: BOX.maxY },
        { minX: mx, minY: my, maxX: BOX.maxX, maxY: BOX.maxY },
      ];
      const parts = tiles.flatMap((t) => pavedZone(readAround(scene, t, FILLER_READ_METRES - 2), t));
      const diff = xorArea(whole, parts);
      // Clipper puts crossing points on the millimetre grid: wedges along the two seams
      const tolerance = 1e-3 * (BOX.maxX - BOX.minX) * 2 + 1e-6 * totalArea(whole);
      worst = Math.max(worst, diff);
      assert.ok(diff <= tolerance, `the tiles' zones differ from the whole's by ${diff} m² (tolerance ${tolerance})`);
    }),
    60,
  );
  console.log(`filler tiling: worst difference ${worst.toExponential(2)} m²`);
});
