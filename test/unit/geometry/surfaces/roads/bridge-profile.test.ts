/**
 * Bridge decks on synthetic scenes, on flat ground (z = 0), a slope and a bumpy terrain: the
 * deck's underside clears what it crosses by the rule's clearance (4.5 m over roads and railways,
 * 2.5 m over paths and waterways, `maxheight` below or `min_height` on the bridge when tagged),
 * its ends at the ground where it joins ground roads (to the edge of their junction), ramps at RAMP_GRADE where there is room and
 * steeper where there is not, a layer-2 deck over a layer-1 one, an elevated chain that ends on
 * steps level all along with its junctions on the deck, and every deck piece a closed slab.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { roadSurfaces, type RoadInput, type UnderLine } from '../../../../../src/geometry/surfaces/roads/road-surfaces.ts';
import { roadWays } from '../../../../../src/geometry/surfaces/roads/road-ways.ts';
import { roadProfile } from '../../../../../src/geometry/surfaces/roads/classify.ts';
import { bridgeDecks } from '../../../../../src/geometry/surfaces/roads/bridge-profile.ts';
import { RAMP_GRADE } from '../../../../../src/geometry/surfaces/roads/bridge-profile.ts';
import { PATH_CLEARANCE, ROAD_CLEARANCE } from '../../../../../src/geometry/surfaces/roads/bridge-crossings.ts';
import { DECK_THICKNESS, deckHeight } from '../../../../../src/geometry/surfaces/deck-height.ts';
import { surfaceMeshes } from '../../../../../src/geometry/surfaces/assemble/surface-meshes.ts';
import { createGroundSampler } from '../../../../../src/geometry/terrain/ground-sampler.ts';
import { inspectMesh } from '../../../../../src/geometry/mesh-checks.ts';
import type { DeckElevation } from '../../../../../src/geometry/surfaces/types.ts';

type Ground = (x: number, y: number) => number;
/** The drawn ways with their bridge decks. */
function decked(roads: readonly RoadInput[], ground: (x: number, y: number) => number, under: readonly UnderLine[] = []) {
  const ways = roadWays(roads);
  bridgeDecks(ways, under, ground);
  return ways;
}

const way = (id: number, tags: Record<string, string>, ...points: number[]): RoadInput => ({ id: `way/${id}`, tags, points });

/** A synthetic DEM: a 10 m grid over ±400 m with hills, as the terrain sampler sees it. */
function bumpyDem() {
  const columns = 81,
    rows = 81;
  const heights = new Float32Array(columns * rows);
  for (let r = 0; r < rows; r++) for (let c = 0; c < columns; c++) heights[r * columns + c] = 80 + 6 * Math.sin(c / 5) + 4 * Math.cos(r / 7) + 0.05 * c * 10;
  return createGroundSampler({ bbox: { minX: -400, minY: -400, maxX: 400, maxY: 400 }, columns, rows, heights });
}

const GROUNDS: [string, Ground][] = [
  ['flat', () => 0],
  ['slope', (x, y) => 100 + x / 25 + y / 40],
  ['DEM', bumpyDem()],
];

const deckOf = (ways: ReturnType<typeof roadWays>, id: string): DeckElevation => ways.find((w) => w.input.id === id)!.deck!;
const under = (deck: DeckElevation, x: number, y: number, ground: Ground) => deckHeight(deck, x, y) - DECK_THICKNESS - ground(x, y);

/** Steepest grade of a deck's profile. */
function steepest(deck: DeckElevation): number {
  const a = deck.axes![0];
  let g = 0;
  for (let i = 3; i < a.length; i += 3) g = Math.max(g, Math.abs(a[i + 2] - a[i - 1]) / Math.hypot(a[i] - a[i - 3], a[i + 1] - a[i - 2]));
  return g;
}

test('a long bridge over a road: ground at the abutments, ramps at RAMP_GRADE, 4.5 m clear over the road', () => {
  for (const [name, ground] of GROUNDS) {
    const roads = [
      way(1, { highway: 'primary' }, -300, 0, -150, 0),
      way(2, { highway: 'primary', bridge: 'yes' }, -150, 0, 150, 0),
      way(3, { highway: 'primary' }, 150, 0, 300, 0),
      way(4, { highway: 'residential' }, 0, -50, 0, 50),
    ];
    const deck = deckOf(decked(roads, ground), 'way/2');
    assert.equal(deck.start.z, ground(-150, 0), name);
    assert.equal(deck.end.z, ground(150, 0), name);
    for (const x of [-4, 0, 4])
      assert.ok(under(deck, x, 0, ground) >= ROAD_CLEARANCE - 1e-6, `${name}: ${under(deck, x, 0, ground)} m under the deck at x ${x}`);
    const slopeOfGround = name === 'flat' ? 0 : name === 'slope' ? 1 / 25 : 0.2;
    assert.ok(steepest(deck) <= RAMP_GRADE + slopeOfGround + 1e-9, `${name}: grade ${steepest(deck)}`);
    if (name === 'flat') assert.ok(Math.abs(deckHeight(deck, 0, 0) - (ROAD_CLEARANCE + DECK_THICKNESS)) < 1e-9, 'level at the clearance, no higher');
    // a bridge over nothing mapped still stands clear of the ground (2.5 m) where its ramps reach
    const alone = deckOf(decked([roads[0], way(2, { highway: 'primary', bridge: 'yes' }, -150, 0, 150, 0), roads[2]], ground), 'way/2');
    if (name !== 'DEM') assert.ok(under(alone, 0, 0, ground) >= PATH_CLEARANCE - 1e-6, `${name}: ${under(alone, 0, 0, ground)}`);
  }
});

test('a short bridge: the clearance wins and its ends ramp as steeply as they must', () => {
  for (const [name, ground] of GROUNDS) {
    const roads = [
      way(1, { highway: 'footway' }, -40, 0, -15, 0),
      way(2, { highway: 'footway', bridge: 'yes' }, -15, 0, 15, 0),
      way(3, { highway: 'footway' }, 15, 0, 40, 0),
    ];
    const street = way(4, { highway: 'secondary' }, 0, -50, 0, 50);
    const deck = deckOf(decked([...roads, street], ground), 'way/2');
    assert.equal(deck.start.z, ground(-15, 0));
    // it leaves the ground at the edge of the footway it joins, not at the node
    const edge = -15 + roadProfile(roads[0].tags)!.width / 2;
    if (name !== 'DEM') {
      assert.ok(Math.abs(deckHeight(deck, edge, 0) - ground(edge, 0)) < 1e-9, `${name}: ${deckHeight(deck, edge, 0) - ground(edge, 0)} m`);
      assert.ok(deckHeight(deck, edge + 1, 0) > ground(edge + 1, 0) + 0.5, `${name}: steep beyond`);
    }
    assert.ok(under(deck, 0, 0, ground) >= ROAD_CLEARANCE - 1e-6, name);
    assert.ok(steepest(deck) > 3 * RAMP_GRADE, `${name}: grade ${steepest(deck)}`);
  }
});

test('tagged heights and what is crossed set the clearance: maxheight below, min_height on the bridge, paths, rails, rivers', () => {
  const ground: Ground = () => 0;
  const bridge = (tags: Record<string, string> = {}) => way(2, { highway: 'primary', bridge: 'yes', ...tags }, -200, 0, 200, 0);
  const ends = [way(1, { highway: 'primary' }, -300, 0, -200, 0), way(3, { highway: 'primary' }, 200, 0, 300, 0)];
  const cases: [string, RoadInput[], UnderLine[], number][] = [
    ['maxheight', [way(4, { highway: 'residential', maxheight: '3.2' }, 0, -50, 0, 50)], [], 3.2],
    ['min_height', [way(4, { highway: 'residential' }, 0, -50, 0, 50)], [], 6],
    ['path', [way(4, { highway: 'footway' }, 0, -50, 0, 50)], [], PATH_CLEARANCE + 0],
    ['rail', [], [{ id: 'way/9', tags: { railway: 'rail' }, points: [0, -50, 0, 50] }], ROAD_CLEARANCE],
    ['river', [], [{ id: 'way/9', tags: { waterway: 'river' }, points: [0, -50, 0, 50] }], PATH_CLEARANCE],
    ['rail in a tunnel', [], [{ id: 'way/9', tags: { railway: 'rail', tunnel: 'yes' }, points: [0, -50, 0, 50] }], PATH_CLEARANCE],
    ['crosswalk', [way(4, { highway: 'footway', footway: 'crossing' }, 0, -50, 0, 50)], [], PATH_CLEARANCE],
  ];
  for (const [name, below, lines, want] of cases) {
    const deck = deckOf(decked([...ends, bridge(name === 'min_height' ? { min_height: '6' } : {}), ...below], ground, lines), 'way/2');
    assert.ok(Math.abs(under(deck, 0, 0, ground) - want) < 1e-9, `${name}: ${under(deck, 0, 0, ground)} m, want ${want}`);
  }
});

test('a layer-2 deck over a layer-1 deck clears the lower deck; crossings on the same layer are not crossings', () => {
  for (const [name, ground] of GROUNDS) {
    const roads = [
      way(1, { highway: 'primary', bridge: 'yes', layer: '1' }, -200, 0, 200, 0),
      way(2, { highway: 'primary', bridge: 'yes', layer: '2' }, 0, -200, 0, 200),
      way(3, { highway: 'residential' }, 20, -100, 20, 100), // under the layer-1 deck only
      way(4, { highway: 'primary' }, -300, 0, -200, 0),
      way(5, { highway: 'primary' }, 200, 0, 300, 0),
      way(6, { highway: 'primary' }, 0, -300, 0, -200),
      way(7, { highway: 'primary' }, 0, 200, 0, 300),
    ];
    const ways = decked(roads, ground);
    const lower = deckOf(ways, 'way/1'),
      upper = deckOf(ways, 'way/2');
    assert.ok(under(lower, 20, 0, ground) >= ROAD_CLEARANCE - 1e-6, name);
    const gap = deckHeight(upper, 0, 0) - DECK_THICKNESS - deckHeight(lower, 0, 0);
    assert.ok(gap >= ROAD_CLEARANCE - 1e-6, `${name}: ${gap} m between the decks`);
  }
});

test('an elevated chain that ends on steps stays up, with its junctions on the deck and every deck piece a closed slab', () => {
  for (const [name, ground] of GROUNDS) {
    const roads = [
      way(1, { highway: 'footway', bridge: 'yes', layer: '1' }, -200, 0, 0, 0),
      way(2, { highway: 'footway', bridge: 'yes', layer: '1' }, 0, 0, 200, 0),
      way(3, { highway: 'footway', bridge: 'yes', layer: '1' }, 0, 0, 0, 30),
      way(4, { highway: 'steps' }, -200, 0, -200, -20),
      way(5, { highway: 'steps' }, 200, 0, 200, -20),
      way(6, { highway: 'steps' }, 0, 30, 10, 40),
      way(7, { highway: 'secondary' }, -100, -50, -100, 50),
      way(8, { highway: 'tertiary' }, 100, -50, 100, 50),
    ];
    const r = roadSurfaces(roads, { ground });
    const decks = r.areas.filter((a) => a.deck);
    const top = (x: number, y: number) => deckHeight(decks.find((a) => a.descriptor.id === 'way/1')!.deck!, x, y);
    if (name === 'flat')
      for (const x of [-200, -150, -100, -50, -10]) assert.ok(Math.abs(top(x, 0) - (ROAD_CLEARANCE + DECK_THICKNESS)) < 1e-9, `level at x ${x}`);
    for (const x of [-100, 100])
      assert.ok(
        deckHeight(decks.find((a) => a.descriptor.id === (x < 0 ? 'way/1' : 'way/2'))!.deck!, x, 0) - DECK_THICKNESS - ground(x, 0) >= ROAD_CLEARANCE - 1e-6,
      );
    const junction = decks.find((a) => a.descriptor.junction === true);
    assert.ok(junction, `${name}: the junction of the three bridge ways is on the deck`);
    for (const fp of junction.footprints)
      for (let i = 0; i < fp.outer.length; i += 2) {
        const [x, y] = [fp.outer[i], fp.outer[i + 1]];
        const arm = ['way/1', 'way/2', 'way/3'].map((id) => deckHeight(decks.find((a) => a.descriptor.id === id)!.deck!, x, y));
        assert.ok(
          arm.some((z) => Math.abs(deckHeight(junction.deck!, x, y) - z) < 1e-9),
          'the junction meets an arm at its height',
        );
      }
    for (const m of surfaceMeshes(decks, { ground: createGroundSampler(null), drape: true })) {
      const report = inspectMesh(m.mesh, 1e-6);
      assert.ok(report.closed && report.degenerate === 0 && report.volume > 0, `${name} ${m.descriptor.id}: ${JSON.stringify(report)}`);
    }
  }
});
