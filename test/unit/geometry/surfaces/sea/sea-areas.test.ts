/**
 * seaAreas (the sea in a square from coastline ways), example by example: a straight coast, islands
 * and lakes, squares no coast crosses, a coast through a corner or along an edge, joined and cut
 * ways, spikes, broken data, a clip that is not a square. The scenes, the checks (assertValid,
 * assertSides) and the tolerances are in test/support/scenes/sea-scenes.ts; the properties over random
 * scenes are in test/unit/geometry/surfaces/sea/sea-properties.test.ts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Footprint } from '../../../../../src/geometry/types.ts';
import { totalArea } from '../../../../../src/geometry/planar/pieces.ts';
import { seaAreas, joinCoastlines, type Coastline } from '../../../../../src/geometry/surfaces/sea/index.ts';
import { clipChainToBox } from '../../../../../src/geometry/surfaces/sea/clip.ts';
import { L, assertSides, assertValid, inSea, scene, seaOf, square, waysOf } from '../../../../support/scenes/sea-scenes.ts';
import { rect } from '../../../../support/scenes/shapes.ts';

test('a straight coast: sea on the right of its direction, land on the left', () => {
  const clip = square(0, 0, 50);
  const east = seaAreas([{ id: 'way/1', points: [-2000, 10, 2000, 10] }], clip);
  assert.equal(totalArea(seaOf(east)), 100 * 60);
  assert.ok(inSea(east, 0, -40) && !inSea(east, 0, 40));
  assert.equal(east[0].descriptor.id, 'way/1');
  assertValid(east, clip);
  const west = seaAreas([{ id: 'way/1', points: [2000, 10, -2000, 10] }], clip);
  assert.equal(totalArea(seaOf(west)), 100 * 40);
  assert.ok(inSea(west, 0, 40) && !inSea(west, 0, -40));
});

test('an island inside the square is a hole of the sea; a lake ring (clockwise) is sea inside land', () => {
  const clip = square(0, 0, 50);
  const island = seaAreas([{ id: 'way/7', points: [-10, -10, 10, -10, 10, 10, -10, 10, -10, -10] }], clip);
  assert.equal(island.length, 1);
  assert.equal(island[0].footprints[0].holes.length, 1);
  assert.equal(totalArea(seaOf(island)), 10000 - 400);
  assert.equal(island[0].descriptor.id, 'way/7');
  const lake = seaAreas([{ id: 'way/8', points: [-10, -10, -10, 10, 10, 10, 10, -10, -10, -10] }], clip);
  assert.equal(totalArea(seaOf(lake)), 400);
});

test('a square no coastline crosses: the nearest coastline within reach decides, none near means land', () => {
  const clip = square(0, 0, 250);
  // coast 600 m north of the square's edge, drawn eastwards: the square is on its water side
  const south = seaAreas([{ id: 'way/1', points: [-3000, 850, 3000, 850] }], clip);
  assert.equal(totalArea(seaOf(south)), 500 * 500);
  assert.equal(south[0].descriptor.id, 'sea');
  // drawn westwards: land
  assert.deepEqual(seaAreas([{ id: 'way/1', points: [3000, 850, -3000, 850] }], clip), []);
  // 1.1 km from the square's edge: we cannot tell, land (what inland tiles are)
  assert.deepEqual(seaAreas([{ id: 'way/1', points: [-3000, 1350, 3000, 1350] }], clip), []);
  // reach counts from the square's edge, not its centre: 900 m from the edge, 1150 m from the centre
  assert.equal(totalArea(seaOf(seaAreas([{ id: 'way/1', points: [-3000, 1150, 3000, 1150] }], clip))), 250000);
  // no coastline at all
  assert.deepEqual(seaAreas([], clip), []);
  // an island 300 m away, nothing else: the square is sea
  assert.equal(totalArea(seaOf(seaAreas([{ id: 'way/2', points: [600, 0, 620, 0, 620, 20, 600, 0] }], clip))), 250000);
  // next to a quay corner: the land's angle decides (a point beyond a convex corner of the land is sea)
  // west along y = -300, then north along x = -300 (a right turn): the sea is the quadrant x, y > -300
  const quay: Coastline = { id: 'way/3', points: [2000, -300, -300, -300, -300, 2000] };
  const nearCorner = seaAreas([quay], square(-350, -350, 10));
  assert.equal(totalArea(seaOf(nearCorner)), 0, 'the corner square lies in the land quadrant');
  assert.equal(totalArea(seaOf(seaAreas([quay], square(0, 0, 10)))), 400, 'the square beyond lies in the sea quadrant');
});

test('a coast through a corner of the square, or touching its edge from inside, cuts nothing wrong', () => {
  const clip = square(0, 0, 50);
  // the diagonal through the corners (-50,-50) and (50,50), drawn north-east: sea south-east
  const diag = seaAreas([{ id: 'way/1', points: [-1000, -1000, 1000, 1000] }], clip);
  assert.ok(Math.abs(totalArea(seaOf(diag)) - 5000) < 1e-6);
  // touching only the corner (50, 50) from outside, land inside the square
  const corner = seaAreas([{ id: 'way/1', points: [1000, 50, 50, 50, 50, 1000] }], clip);
  assert.deepEqual(corner, [], 'the square is on the land side');
  const cornerSea = seaAreas([{ id: 'way/1', points: [50, 1000, 50, 50, 1000, 50] }], clip);
  assert.equal(totalArea(seaOf(cornerSea)), 10000);
  // a coast whose corner touches the north edge from inside (Λ): sea under it, land in the two
  // corners above it, which meet the sea only at the touching point
  const v = seaAreas([{ id: 'way/1', points: [-1000, -20, 0, 50, 1000, -20] }], clip);
  assertValid(v, clip);
  assert.ok(inSea(v, 0, -40) && inSea(v, 0, 30) && !inSea(v, -45, 49) && !inSea(v, 45, 49));
  assert.ok(Math.abs(totalArea(seaOf(v)) - (10000 - (2 * (50 * 50 * 0.07)) / 2)) < 1e-3);
  // a coast running along the square's edge for a stretch
  const along = seaAreas([{ id: 'way/1', points: [-1000, 0, -50, 0, -50, 20, 1000, 20] }], clip);
  assertValid(along, clip);
  assert.equal(totalArea(seaOf(along)), 100 * 70);
});

test('ways meeting within 1 cm are one coast; an open end is extended straight on', () => {
  const clip = square(0, 0, 50);
  const joined = seaAreas(
    [
      { id: 'way/1', points: [-2000, 0, 10, 0] },
      { id: 'way/2', points: [10.006, 0.004, 2000, 0] },
    ],
    clip,
  );
  assert.ok(Math.abs(totalArea(seaOf(joined)) - 5000) < 1e-3);
  assert.equal(joined[0].descriptor.id, 'way/1;way/2');
  assert.equal(
    joinCoastlines([
      { id: 'way/1', points: [-2000, 0, 10, 0] },
      { id: 'way/2', points: [10.006, 0.004, 2000, 0] },
    ]).length,
    1,
  );
  // the extract cut the coast inside the square: it goes on straight
  const cut = seaAreas([{ id: 'way/1', points: [-2000, 0, 10, 0] }], clip);
  assert.equal(totalArea(seaOf(cut)), 5000);
  const cutBoth = seaAreas([{ id: 'way/1', points: [-20, 0, 10, 0] }], clip);
  assert.equal(totalArea(seaOf(cutBoth)), 5000);
  // a hook at the cut end does not turn the extension back across the land
  const hooked = seaAreas([{ id: 'way/1', points: [-2000, 0, 20, 0, 20, -3, 17, -3] }], clip);
  assertValid(hooked, clip);
  assert.ok(!inSea(hooked, 0, 20) && inSea(hooked, 0, -20));
});

test('a zero-width spike (a way out and back along the same nodes) leaves the sea sea', () => {
  const clip = square(0, 0, 50);
  // the coast runs west along y = 0 (sea north) with a spike out to (10, 30) and back
  const spike = seaAreas([{ id: 'way/1', points: [2000, 0, 10, 0, 10, 30, 10, 0, -2000, 0] }], clip);
  assertValid(spike, clip);
  assert.equal(totalArea(seaOf(spike)), 5000);
  // the same with the spike's return a millimetre off
  const near = seaAreas([{ id: 'way/1', points: [2000, 0, 10, 0, 10, 30, 10.001, 0, -2000, 0] }], clip);
  assertValid(near, clip);
  assert.ok(Math.abs(totalArea(seaOf(near)) - 5000) < 0.1);
});

test('broken data never puts sea on the land side of a coastline', () => {
  const clip = square(0, 0, 100);
  // two coasts crossing in an X, one of them drawn the wrong way round
  const ways: Coastline[] = [
    { id: 'way/1', points: [-1000, -1000, 1000, 1000] },
    { id: 'way/2', points: [-1000, 1000, 1000, -1000] },
  ];
  const x = seaAreas(ways, clip);
  assertValid(x, clip);
  assertSides(x, ways, clip, false);
  // a mole drawn the wrong way round inside a harbour
  const s = scene('harbour', [rect(-L, -L, L, 0), rect(-40, -1, -30, 80)]);
  const bad = waysOf(s, [], [0]).map((w) => ({ ...w, points: w.points }));
  bad.push({ id: 'way/999', points: [30, 0, 30, 80, 40, 80, 40, 0] });
  const out = seaAreas(bad, clip);
  assertValid(out, clip);
  assertSides(out, bad, clip, false);
});

test('a clip that is not a square: the sea is cut to it', () => {
  const clip: Footprint = { outer: [0, 0, 100, 0, 0, 100], holes: [] };
  const out = seaAreas([{ id: 'way/1', points: [-2000, 50, 2000, 50] }], clip);
  assertValid(out, { outer: rect(0, 0, 100, 100), holes: [] });
  assert.ok(Math.abs(totalArea(seaOf(out)) - (5000 - 1250)) < 1e-6);
});

test('clipChainToBox keeps runs whole through vertices inside the box', () => {
  // the cut of a segment ending inside is its end exactly, so consecutive segments stay one run
  const pts = [
    250.5, -77.35, 227.83225760528669, -59.182845923298196, 216.01974742760422, 1.6923219461436303, 177.4708845329799, -5.719655456128514, 180.8, -24.8, 300,
    -30,
  ];
  const runs = clipChainToBox(pts, false, { minX: -250, minY: -250, maxX: 250, maxY: 250 });
  assert.equal(runs.length, 1);
  assert.equal(runs[0].points.length, 12);
});
