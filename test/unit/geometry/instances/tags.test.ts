import { test } from 'node:test';
import assert from 'node:assert/strict';
import { nodeTypeOf } from '../../../../src/geometry/instances/tags/node-type.ts';
import { directionRotation } from '../../../../src/geometry/instances/tags/direction.ts';
import { scaleFor } from '../../../../src/geometry/instances/catalogue.ts';
import { NearestLines } from '../../../../src/geometry/instances/facing.ts';
import { parseTreeSize } from '../../../../src/geometry/trees/tags/size.ts';
import { parseTreeKind } from '../../../../src/geometry/trees/tags/leaf.ts';
import { treeSize } from '../../../../src/geometry/trees/tree-size.ts';
import { treeRowPositions } from '../../../../src/geometry/trees/tree-row.ts';
import { fillRuleOf } from '../../../../src/geometry/trees/fill-areas.ts';

test('node types: the README table, first row wins', () => {
  const cases: [Record<string, string>, string | null][] = [
    [{ natural: 'tree' }, 'tree'],
    [{ natural: 'shrub' }, 'shrubbery'],
    [{ barrier: 'hedge' }, 'shrubbery'],
    [{ amenity: 'bench' }, 'bench'],
    [{ leisure: 'picnic_table' }, 'picnicTable'],
    [{ highway: 'bus_stop', public_transport: 'platform', bus: 'yes' }, 'busStop'],
    [{ public_transport: 'platform', bus: 'yes' }, 'busStop'],
    [{ public_transport: 'platform', tram: 'yes' }, null],
    [{ power: 'pole' }, 'utilityPole'],
    [{ man_made: 'utility_pole' }, 'utilityPole'],
    [{ power: 'tower' }, 'transmissionTower'],
    [{ emergency: 'fire_hydrant' }, 'hydrant'],
    [{ advertising: 'column' }, 'adColumn'],
    [{ man_made: 'crane' }, 'towerCrane'],
    [{ man_made: 'crane', 'crane:type': 'crawler_crane' }, 'trackedCrane'],
    [{ power: 'generator', 'generator:source': 'wind' }, 'windTurbine'],
    [{ power: 'generator', 'generator:source': 'solar' }, null],
    [{ historic: 'memorial' }, 'memorial'],
    [{ tourism: 'artwork', artwork_type: 'statue' }, 'statueSmall'],
    [{ tourism: 'artwork', artwork_type: 'statue', height: '4.5' }, 'statueBig'],
    [{ tourism: 'artwork', artwork_type: 'statue', height: '2 m' }, 'statueSmall'],
    [{ tourism: 'artwork', artwork_type: 'sculpture' }, 'sculpture'],
    [{ tourism: 'artwork' }, 'sculpture'],
    [{ tourism: 'artwork', artwork_type: 'mural' }, null],
    [{ highway: 'street_lamp' }, 'streetLamp'],
    [{ amenity: 'waste_basket' }, 'wasteBasket'],
    [{ amenity: 'post_box' }, 'postBox'],
    [{ amenity: 'drinking_water' }, 'drinkingWater'],
    [{ man_made: 'flagpole' }, 'flagpole'],
    [{ amenity: 'bicycle_parking' }, 'bicycleParking'],
    [{ amenity: 'bench', highway: 'street_lamp' }, 'bench'],
    [{ amenity: 'cafe' }, null],
  ];
  for (const [tags, want] of cases) assert.equal(nodeTypeOf(tags), want, JSON.stringify(tags));
});

test('direction: compass degrees clockwise from north → radians counter-clockwise from east', () => {
  const close = (a: number | null, b: number) => assert.ok(a !== null && Math.abs(a - b) < 1e-9, `${a} vs ${b}`);
  close(directionRotation({ direction: '90' }), 0); // facing east
  close(directionRotation({ direction: '0' }), Math.PI / 2); // north
  close(directionRotation({ direction: 'W' }), Math.PI);
  close(directionRotation({ direction: '180' }), 1.5 * Math.PI);
  assert.equal(directionRotation({ direction: 'forward' }), null);
  assert.equal(directionRotation({}), null);
});

test('scale: tagged height over the nominal height, 1 untagged, wires always 1', () => {
  assert.equal(scaleFor('bench', null), 1);
  assert.equal(scaleFor('utilityPole', 18), 2);
  assert.equal(scaleFor('wire', 30), 1);
  assert.equal(scaleFor('bench', 900), 20); // clamped typo
});

test('facing: a bench turns to the closest point of the nearest road', () => {
  const lines = new NearestLines([
    [0, 10, 100, 10],
    [0, -50, 100, -50],
  ]);
  const r = lines.facing(50, 0)!;
  assert.ok(Math.abs(r - Math.PI / 2) < 1e-9, `faces north: ${r}`);
  assert.equal(lines.facing(50, 200), null, 'nothing within 30 m');
});

test('tree size: height, diameter_crown, circumference allometry, else leaf-type defaults', () => {
  const size = (tags: Record<string, string>) => treeSize(parseTreeSize(tags), parseTreeKind(tags).leafType);
  assert.deepEqual(size({ height: '12', diameter_crown: '8' }), { height: 12, crownDiameter: 8, heightSource: 'height' });
  assert.equal(size({ height: '10' }).crownDiameter, 6);
  assert.equal(size({ height: '20', leaf_type: 'needleleaved' }).crownDiameter, 7);
  assert.equal(size({ diameter_crown: '6' }).height, 10);
  const c = size({ circumference: '0.94' }); // D ≈ 30 cm
  assert.equal(c.heightSource, 'circumference');
  assert.ok(c.height > 12 && c.height < 18 && c.crownDiameter > 5 && c.crownDiameter < 7, JSON.stringify(c));
  assert.deepEqual(size({ circumference: '94' }), c, 'a bare number over 30 is centimetres');
  assert.deepEqual(size({}), { height: 10, crownDiameter: 6, heightSource: 'default' });
  assert.equal(size({ leaf_type: 'needleleaved' }).height, 14);
  assert.equal(size({ genus: 'Phoenix' }).height, 8, 'palms by genus');
  assert.equal(size({ height: '-3' }).heightSource, 'default');
  assert.deepEqual(parseTreeKind({ species: 'Platanus × acerifolia', leaf_cycle: 'deciduous', leaf_type: 'broadleaved', denotation: 'avenue' }), {
    species: 'Platanus × acerifolia',
    genus: 'Platanus',
    leafCycle: 'deciduous',
    leafType: 'broadleaved',
    denotation: 'avenue',
  });
});

test('tree rows: both ends and evenly between, about 8 m apart', () => {
  const p = treeRowPositions([0, 0, 30, 0, 30, 10]);
  assert.equal(p.length, 6); // 40 m → 5 gaps of 8 m
  assert.deepEqual(p[0], [0, 0]);
  assert.deepEqual(p[5], [30, 10]);
  assert.deepEqual(p[3], [24, 0]);
  assert.deepEqual(treeRowPositions([0, 0, 4, 0]), [[2, 0]], 'a short row is one tree at its middle');
});

test('fill rules: forests, scrub, orchards in rows, parks only with a tree hint', () => {
  assert.equal(fillRuleOf({ landuse: 'forest' })?.plant, 'tree');
  assert.equal(fillRuleOf({ natural: 'wood', leaf_type: 'needleleaved' })?.keep, 0.74);
  assert.equal(fillRuleOf({ natural: 'scrub' })?.plant, 'shrubbery');
  assert.equal(fillRuleOf({ landuse: 'orchard' })?.rows, true);
  assert.equal(fillRuleOf({ leisure: 'park' }), null);
  assert.equal(fillRuleOf({ leisure: 'park', trees: 'yes' })?.kind, 'park');
  assert.equal(fillRuleOf({ landuse: 'grass' }), null);
});
