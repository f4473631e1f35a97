import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  parseAngle,
  parseColour,
  parseDirection,
  parseLength,
  parseLevels,
  parseMaterial,
  parseMultiValued,
} from '../../../../src/osm-model/tag-values/index.ts';
import { parseOrientation, parseRoofShape } from '../../../../src/geometry/buildings/tags/index.ts';

const close = (a: number | null, b: number) => a !== null && Math.abs(a - b) < 1e-9;

test('lengths in the units people tag', () => {
  const cases: [string, number][] = [
    ['12', 12],
    ['12 m', 12],
    ['12m', 12],
    ['12.5', 12.5],
    ['12,5', 12.5],
    [' 45.58 ', 45.58],
    ['.5', 0.5],
    ['0', 0],
    ['12 metres', 12],
    ['12 meters', 12],
    ['1250 cm', 12.5],
    ['3 ft', 0.9144],
    ['3 feet', 0.9144],
    ["40'", 12.192],
    ['12\'6"', 3.81],
    ['12\' 6"', 3.81],
    ['12 ft 6 in', 3.81],
    ["12'6", 3.81],
    ['6"', 0.1524],
    ['0.2 km', 200],
    ['12 M', 12],
  ];
  for (const [text, metres] of cases) assert.ok(close(parseLength(text), metres), `${text} → ${parseLength(text)}`);
});

test('nonsense lengths are refused', () => {
  for (const text of [
    '-5',
    '-5 m',
    'NaN',
    'tall',
    '',
    ' ',
    '12-15',
    '12;15',
    '12 m;15 m',
    '1e3',
    '2000',
    '1.5 km',
    '12\'13"',
    '12 parsecs',
    'Infinity',
    '12..5',
    '1,000,000',
  ]) {
    assert.equal(parseLength(text), null, text);
  }
  assert.equal(parseLength(undefined), null);
});

test('property: any length 0–1000 m written in metres, centimetres or feet reads back', () => {
  fc.assert(
    fc.property(fc.double({ min: 0, max: 1000, noNaN: true }), (m) => {
      const text = m.toFixed(3);
      assert.ok(close(parseLength(text), Number(text)));
      assert.ok(close(parseLength(`${text} m`), Number(text)));
      assert.ok(close(parseLength(text.replace('.', ',')), Number(text)));
      const feet = (m / 0.3048).toFixed(2);
      const back = parseLength(`${feet} ft`);
      if (Number(feet) * 0.3048 <= 1000) assert.ok(back !== null && Math.abs(back - Number(feet) * 0.3048) < 1e-9);
    }),
  );
});

test('property: whatever the text, a length is null or a finite number in [0, 1000]', () => {
  fc.assert(
    fc.property(fc.string(), (s) => {
      const v = parseLength(s);
      assert.ok(v === null || (Number.isFinite(v) && v >= 0 && v <= 1000));
    }),
    { numRuns: 2000 },
  );
});

test('levels: counts and halves; negative, lists and absurd counts refused', () => {
  assert.equal(parseLevels('4'), 4);
  assert.equal(parseLevels('0'), 0);
  assert.equal(parseLevels('2.5'), 2.5);
  assert.equal(parseLevels('0,5'), 0.5);
  for (const text of ['-1', 'three', '3;4', '3-4', '1000', '', '4 levels']) assert.equal(parseLevels(text), null, text);
});

test('multi-values: every item parsed alone, then the smallest or largest kept', () => {
  assert.deepEqual(parseMultiValued('5;5.5', parseLength, 'smallest'), { value: 5, distinct: 2 });
  assert.deepEqual(parseMultiValued('12 m; 14', parseLength, 'largest'), { value: 14, distinct: 2 });
  assert.deepEqual(parseMultiValued('1250 cm', parseLength, 'largest'), { value: 12.5, distinct: 1 });
  assert.deepEqual(parseMultiValued('3;3', parseLevels, 'largest'), { value: 3, distinct: 1 });
  assert.deepEqual(parseMultiValued('2;1;4', parseLevels, 'smallest'), { value: 1, distinct: 3 });
  for (const text of ['12;tall', '12;', ';12', '12;-1', '', '12;;14', '12;2000']) assert.equal(parseMultiValued(text, parseLength, 'smallest'), null, text);
  assert.equal(parseMultiValued(undefined, parseLength, 'smallest'), null);
});

test('roof angle: degrees below 90', () => {
  assert.equal(parseAngle('30'), 30);
  assert.equal(parseAngle('42.5°'), 42.5);
  assert.equal(parseAngle('30 deg'), 30);
  for (const text of ['90', '120', '-30', 'steep']) assert.equal(parseAngle(text), null, text);
});

test('roof:shape in OSM spellings', () => {
  const exact: [string, string][] = [
    ['flat', 'flat'],
    ['skillion', 'skillion'],
    ['gabled', 'gabled'],
    ['hipped', 'hipped'],
    ['pyramidal', 'pyramidal'],
    ['dome', 'dome'],
    ['onion', 'onion'],
    ['round', 'round'],
    ['mansard', 'mansard'],
    ['gambrel', 'gambrel'],
    ['saltbox', 'saltbox'],
    ['quadruple_saltbox', 'quadrupleSaltbox'],
    ['Quadruple-Saltbox', 'quadrupleSaltbox'],
    [' Gabled ', 'gabled'],
  ];
  for (const [text, shape] of exact) assert.deepEqual(parseRoofShape(text), { shape, exact: true }, text);
  const near: [string, string][] = [
    ['half-hipped', 'gabled'],
    ['half_hipped', 'gabled'],
    ['side_hipped', 'hipped'],
    ['hipped-and-gabled', 'hipped'],
    ['lean_to', 'skillion'],
    ['gabled_height_moved', 'saltbox'],
    ['cone', 'pyramidal'],
    ['tented', 'pyramidal'],
    ['crosspitched', 'hipped'],
    ['sawtooth', 'skillion'],
    ['spherical', 'dome'],
    ['barrel', 'round'],
    ['butterfly', 'flat'],
  ];
  for (const [text, shape] of near) assert.deepEqual(parseRoofShape(text), { shape, exact: false }, text);
  for (const text of ['many', 'yes', '', 'cylindrical box']) assert.equal(parseRoofShape(text), null, text);
});

test('roof:direction in degrees or winds, normalised to [0, 360)', () => {
  const cases: [string, number][] = [
    ['0', 0],
    ['90', 90],
    ['225', 225],
    ['360', 0],
    ['-45', 315],
    ['45.5°', 45.5],
    ['N', 0],
    ['nne', 22.5],
    ['NE', 45],
    ['E', 90],
    ['SSE', 157.5],
    ['SW', 225],
    ['WNW', 292.5],
    ['NNW', 337.5],
    ['south-west', 225],
    ['North East', 45],
    ['west', 270],
  ];
  for (const [text, deg] of cases) assert.equal(parseDirection(text), deg, text);
  for (const text of ['up', 'NS', '1000', '', 'SW;NE']) assert.equal(parseDirection(text), null, text);
});

test('roof:orientation', () => {
  assert.equal(parseOrientation('along'), 'along');
  assert.equal(parseOrientation(' Across '), 'across');
  assert.equal(parseOrientation('diagonal'), null);
});

test('colours normalised to #rrggbb', () => {
  const cases: [string, string][] = [
    ['#FFF', '#ffffff'],
    ['#a0B1c2', '#a0b1c2'],
    ['a0b1c2', '#a0b1c2'],
    ['fa8', '#ffaa88'],
    ['white', '#ffffff'],
    ['Grey', '#808080'],
    ['light grey', '#d3d3d3'],
    ['light_grey', '#d3d3d3'],
    ['Light-Grey', '#d3d3d3'],
    ['darkred', '#8b0000'],
    ['brown', '#a52a2a'],
    ['beige', '#f5f5dc'],
    ['terracotta', '#e2725b'],
    ['cream', '#fffdd0'],
  ];
  for (const [text, hex] of cases) assert.equal(parseColour(text), hex, text);
  for (const text of ['facade', 'bad', '#12345', '#ggg', 'rainbow', '', 'red;white']) assert.equal(parseColour(text), null, text);
});

test('property: a colour is null or #rrggbb', () => {
  fc.assert(
    fc.property(fc.string(), (s) => {
      const c = parseColour(s);
      assert.ok(c === null || /^#[0-9a-f]{6}$/.test(c));
    }),
    { numRuns: 2000 },
  );
});

test('materials: tokens, synonyms folded', () => {
  assert.equal(parseMaterial('roof_tiles'), 'roof_tiles');
  assert.equal(parseMaterial('Tiles'), 'roof_tiles');
  assert.equal(parseMaterial('metal'), 'metal');
  assert.equal(parseMaterial('sheet metal'), 'metal');
  assert.equal(parseMaterial('wood'), 'wood');
  assert.equal(parseMaterial('timber'), 'wood');
  assert.equal(parseMaterial('brick;stone'), null);
  assert.equal(parseMaterial(''), null);
});
