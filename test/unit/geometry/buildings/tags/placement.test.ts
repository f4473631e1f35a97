import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { isBridgePart, parseBuildingTags, undergroundReason } from '../../../../../src/geometry/buildings/tags/index.ts';
import { parseLength, parseLevels, parseMultiValued } from '../../../../../src/osm-model/tag-values/index.ts';
import type { BuildingTagDefaults } from '../../../../../src/geometry/buildings/tags/index.ts';
import { buildingSpecFromTags } from '../../../../../src/geometry/buildings/building-spec.ts';
import { buildBuildingPart } from '../../../../../src/geometry/buildings/build-part.ts';
import { loadRoofs } from '../../../../../src/geometry/buildings/roofs/index.ts';
import { inspectMesh } from '../../../../../src/geometry/mesh-checks.ts';
import { createLocalFrame } from '../../../../../src/frame/local-frame.ts';
import { buildBuildings } from '../../../../../src/geometry/buildings/from-osm.ts';
import type { OsmFeature } from '../../../../../src/osm-model/feature.ts';
import type { Footprint } from '../../../../../src/geometry/types.ts';

before(async () => {
  await loadRoofs();
});

const DEFAULTS: BuildingTagDefaults = { defaultLevels: 1, defaultLevelHeight: 4, defaultRoofType: 'flat' };

// ---------------------------------------------------------------- underground

test('location=underground is underground whatever the layer, also inside a multi-value', () => {
  assert.equal(undergroundReason({ building: 'yes', location: 'underground' }), 'location=underground');
  assert.equal(undergroundReason({ building: 'yes', location: 'Underground' }), 'location=Underground');
  assert.equal(undergroundReason({ building: 'yes', location: 'underground;indoor' }), 'location=underground;indoor');
  assert.equal(undergroundReason({ building: 'yes', location: 'indoor; underground' }), 'location=indoor; underground');
  assert.equal(undergroundReason({ 'building:part': 'yes', location: 'underground', layer: '2' }), 'location=underground');
  assert.equal(undergroundReason({ building: 'underground' }), 'building=underground');
  assert.equal(undergroundReason({ 'building:part': 'underground' }), 'building:part=underground');
});

test('a negative layer with a location, tunnel, indoor, level or underground-parking hint is underground', () => {
  const cases: [Record<string, string>, string][] = [
    [{ building: 'yes', layer: '-1', location: 'basement' }, 'layer=-1 with location=basement'],
    [{ building: 'yes', layer: '-2', location: 'subway' }, 'layer=-2 with location=subway'],
    [{ building: 'yes', layer: '-1', tunnel: 'yes' }, 'layer=-1 with tunnel=yes'],
    [{ building: 'yes', layer: '-1', tunnel: 'building_passage' }, 'layer=-1 with tunnel=building_passage'],
    [{ 'building:part': 'yes', layer: '-1', indoor: 'room' }, 'layer=-1 with indoor=room'],
    [{ building: 'yes', layer: '-1', level: '-2;-1' }, 'layer=-1 with level=-2;-1'],
    [{ building: 'parking', layer: '-1', parking: 'underground' }, 'layer=-1 with parking=underground'],
    [{ building: 'yes', layer: '-1;-2', tunnel: 'yes' }, 'layer=-1;-2 with tunnel=yes'],
    [{ building: 'yes', layer: ' -3 ', indoor: 'yes' }, 'layer= -3  with indoor=yes'],
  ];
  for (const [tags, reason] of cases) assert.equal(undergroundReason(tags), reason, JSON.stringify(tags));
});

test('plain layer=-1, a hint without a negative layer, and above-ground locations stay buildings', () => {
  const buildings: Record<string, string>[] = [
    { building: 'yes' },
    { building: 'yes', layer: '-1' }, // z-order only: a building under a bridge or a ramp
    { building: 'yes', layer: '-5', 'building:levels': '3' },
    { building: 'yes', tunnel: 'building_passage' }, // a passage through an ordinary building
    { building: 'yes', indoor: 'yes' },
    { building: 'yes', level: '-1' },
    { building: 'parking', parking: 'underground' }, // the structure over an underground car park
    { building: 'yes', location: 'indoor' },
    { building: 'yes', layer: '-1', tunnel: 'no' },
    { building: 'yes', layer: '-1', indoor: 'no' },
    { building: 'yes', layer: '-1', level: '0' },
    { building: 'yes', layer: '-1', level: '-1;0' },
    { building: 'yes', layer: '-1;1', tunnel: 'yes' }, // not every layer below ground
    { building: 'yes', layer: '0', tunnel: 'yes' },
    { building: 'yes', layer: '1', location: 'basement' },
    { building: 'yes', layer: 'minus one', tunnel: 'yes' },
    { building: 'yes', layer: '-1', location: 'rooftop' },
    { building: 'yes', layer: '-1', location: 'overground' },
    { building: 'roof', layer: '-1', location: 'roof' },
    { 'building:part': 'bridge', layer: '-1', location: 'bridge' },
  ];
  for (const tags of buildings) assert.equal(undergroundReason(tags), null, JSON.stringify(tags));
});

test('property: without location=underground or an underground building value, a layer ≥ 0 is never underground', () => {
  const keys = ['building', 'building:part', 'layer', 'location', 'tunnel', 'indoor', 'level', 'parking'];
  const value = fc.oneof(fc.string(), fc.constantFrom('yes', 'no', '-1', '0', '1', 'basement', 'indoor', 'room', 'subway', '-2;-1'));
  fc.assert(
    fc.property(fc.dictionary(fc.constantFrom(...keys), value), fc.integer({ min: 0, max: 5 }), (tags, layer) => {
      const t: Record<string, string> = { ...tags, layer: String(layer) };
      const explicit = [t.location, t.building, t['building:part']].some(
        (v) => v !== undefined && v.split(';').some((x) => x.trim().toLowerCase() === 'underground'),
      );
      if (!explicit) assert.equal(undergroundReason(t), null, JSON.stringify(t));
      const r = undergroundReason(t);
      assert.ok(r === null || r.length > 0);
    }),
    { numRuns: 1000 },
  );
});

test('bridge parts: bridge=*, building:part=bridge, building=bridge, man_made=bridge', () => {
  for (const tags of <Record<string, string>[]>[
    { 'building:part': 'yes', bridge: 'yes' },
    { 'building:part': 'yes', bridge: 'viaduct' },
    { 'building:part': 'bridge' },
    { building: 'bridge' },
    { building: 'yes', man_made: 'bridge' },
    { 'building:part': 'yes', bridge: 'aqueduct;yes' },
  ])
    assert.equal(isBridgePart(tags), true, JSON.stringify(tags));
  for (const tags of <Record<string, string>[]>[
    { 'building:part': 'yes' },
    { 'building:part': 'yes', bridge: 'no' },
    { building: 'yes', 'bridge:structure': 'arch' },
    { building: 'yes', bridge: '' },
  ]) {
    assert.equal(isBridgePart(tags), false, JSON.stringify(tags));
  }
});

// ---------------------------------------------------------------- multi-valued tags

test('multi-valued heights: bottoms take the smallest, tops and thicknesses the largest, and say so', () => {
  const t = parseBuildingTags({ 'building:part': 'yes', min_height: '5;5.5', height: '12;14' }, DEFAULTS);
  assert.deepEqual([t.minHeight, t.height, t.heightSource], [5, 14, 'height']);
  assert.deepEqual(t.ignored, []);
  assert.deepEqual(t.notes, ['height=12;14: several values, the largest (14) used', 'min_height=5;5.5: several values, the smallest (5) used']);
  const l = parseBuildingTags({ building: 'yes', 'building:levels': '3;4', 'building:min_level': '2;1' }, DEFAULTS);
  assert.deepEqual([l.levels, l.minLevel, l.minHeight, l.wallHeight, l.heightSource], [4, 1, 4, 16, 'levels']);
  assert.equal(l.notes.length, 2);
  const roof = parseBuildingTags({ building: 'yes', height: '20', 'roof:shape': 'gabled', 'roof:height': '2 m;3 m' }, DEFAULTS);
  assert.deepEqual([roof.roofHeight, roof.wallHeight, roof.roofHeightSource], [3, 17, 'roof:height']);
  const roofLevels = parseBuildingTags({ building: 'yes', 'building:levels': '2', 'roof:shape': 'gabled', 'roof:levels': '1;2' }, DEFAULTS);
  assert.equal(roofLevels.roofHeight, 8);
  // Units per item; a repeated value is not a reduction.
  const mixed = parseBuildingTags({ building: 'yes', height: "40'; 12 m", min_height: '5;5' }, DEFAULTS);
  assert.deepEqual([mixed.height, mixed.minHeight], [12.192, 5]);
  assert.deepEqual(mixed.notes, ["height=40'; 12 m: several values, the largest (12.192) used"]);
});

test('a multi-value with any unusable item is ignored as before; lists stay refused where no reduction is defined', () => {
  const t = parseBuildingTags(
    { building: 'yes', height: '12;tall', min_height: '3;', 'building:levels': '3;-1', 'roof:angle': '30;40', 'roof:shape': 'gabled' },
    DEFAULTS,
  );
  assert.deepEqual(t.ignored.sort(), ['building:levels=3;-1', 'height=12;tall', 'min_height=3;', 'roof:angle=30;40']);
  assert.deepEqual(t.notes, []);
  assert.deepEqual([t.heightSource, t.minHeight], ['default', 0]);
  // The single-value parsers themselves still refuse lists.
  assert.equal(parseLength('5;5.5'), null);
  assert.equal(parseLevels('3;4'), null);
});

test('height=0 and min_height above height stay reported in dataNotes, also when multi-valued', () => {
  const zero = parseBuildingTags({ building: 'yes', height: '0' }, DEFAULTS);
  assert.deepEqual([zero.ignored, zero.heightSource], [['height=0'], 'default']);
  assert.deepEqual(parseBuildingTags({ building: 'yes', height: '0;0' }, DEFAULTS).ignored, ['height=0;0']);
  const above = parseBuildingTags({ building: 'yes', height: '10', min_height: '12' }, DEFAULTS);
  assert.deepEqual([above.ignored, above.minHeight], [['min_height=12'], 0]);
  const aboveList = parseBuildingTags({ building: 'yes', height: '10;9', min_height: '12;13' }, DEFAULTS);
  assert.deepEqual([aboveList.ignored, aboveList.minHeight, aboveList.height], [['min_height=12;13'], 0, 10]);
  assert.deepEqual(aboveList.notes, ['height=10;9: several values, the largest (10) used'], 'a dropped minimum is reported once, as ignored');
  // …and they reach the spec's notes (the descriptor's dataNotes).
  const spec = buildingSpecFromTags(
    { building: 'yes', height: '0', min_height: '2;3' },
    { defaultLevels: 2, defaultLevelHeight: 3, defaultRoofType: 'flat' },
    rect(0, 0, 10, 10),
  );
  assert.deepEqual(spec.notes, ['height=0', 'min_height=2;3: several values, the smallest (2) used']);
  assert.deepEqual([spec.minHeight, spec.height], [2, 8]);
});

test('property: any list of valid lengths joined with ";" gives min_height = their minimum (and height = their maximum)', () => {
  const length = fc.tuple(fc.double({ min: 0, max: 900, noNaN: true }), fc.constantFrom('', ' m', 'm', ' cm')).map(([m, unit]) => {
    const n = unit === ' cm' ? Math.round(m * 100) : Number(m.toFixed(3));
    return { text: `${n}${unit}`, metres: unit === ' cm' ? n / 100 : n };
  });
  fc.assert(
    fc.property(fc.array(length, { minLength: 1, maxLength: 6 }), fc.constantFrom(';', '; ', ' ;'), (items, sep) => {
      const text = items.map((i) => i.text).join(sep);
      const min = Math.min(...items.map((i) => i.metres));
      const max = Math.max(...items.map((i) => i.metres));
      const parsed = parseMultiValued(text, parseLength, 'smallest');
      assert.ok(parsed !== null && Math.abs(parsed.value - min) < 1e-9, text);
      const t = parseBuildingTags({ 'building:part': 'yes', min_height: text, height: '950' }, DEFAULTS);
      assert.ok(Math.abs(t.minHeight - min) < 1e-9, `${text} → ${t.minHeight}`);
      assert.deepEqual(t.ignored, []);
      assert.equal(t.notes.length, new Set(items.map((i) => i.metres)).size > 1 ? 1 : 0, text);
      const h = parseBuildingTags({ building: 'yes', height: text }, DEFAULTS);
      if (max > 0) assert.ok(Math.abs(h.height - max) < 1e-9, `${text} → ${h.height}`);
    }),
    { numRuns: 500 },
  );
});

test('property: level lists give building:min_level = their minimum and building:levels = their maximum', () => {
  fc.assert(
    fc.property(fc.array(fc.integer({ min: 0, max: 200 }), { minLength: 1, maxLength: 5 }), (counts) => {
      const text = counts.join(';');
      const t = parseBuildingTags({ 'building:part': 'yes', 'building:min_level': text, 'building:levels': '240' }, DEFAULTS);
      assert.equal(t.minLevel, Math.min(...counts));
      assert.equal(t.minHeight, Math.min(...counts) * 4);
      assert.equal(parseBuildingTags({ building: 'yes', 'building:levels': text }, DEFAULTS).levels, Math.max(...counts));
    }),
    { numRuns: 300 },
  );
});

// ---------------------------------------------------------------- bridge decks

function rect(x: number, y: number, w: number, d: number): Footprint {
  return { outer: [x, y, x + w, y, x + w, y + d, x, y + d], holes: [] };
}

function zRange(positions: ArrayLike<number>): [number, number] {
  let lo = Infinity,
    hi = -Infinity;
  for (let i = 2; i < positions.length; i += 3) {
    lo = Math.min(lo, positions[i]);
    hi = Math.max(hi, positions[i]);
  }
  return [lo, hi];
}

const SPEC_DEFAULTS = { defaultLevels: 2, defaultLevelHeight: 3, defaultRoofType: 'flat' as const };

function buildSpec(tags: Record<string, string>, footprint: Footprint) {
  const spec = buildingSpecFromTags(tags, SPEC_DEFAULTS, footprint);
  const built = buildBuildingPart(footprint, { baseZ: spec.minHeight, wallTopZ: spec.wallHeight, roof: spec.roof });
  return { spec, built };
}

test('a bridge part with min_height is a floating deck from min_height to height, a closed solid', () => {
  const footprint = rect(0, 0, 40, 8);
  for (const tags of <Record<string, string>[]>[
    { 'building:part': 'bridge', min_height: '5', height: '8' },
    { 'building:part': 'yes', bridge: 'viaduct', 'bridge:structure': 'arch', layer: '1', min_height: '5', height: '8' },
    { 'building:part': 'yes', bridge: 'yes', min_height: '5;5.5', height: '7.5;8' },
  ]) {
    const { spec, built } = buildSpec(tags, footprint);
    assert.deepEqual([spec.minHeight, spec.height], [5, 8], JSON.stringify(tags));
    assert.ok(!spec.notes.some((n) => n.startsWith('bridge')), JSON.stringify(spec.notes));
    assert.deepEqual(zRange(built.mesh.positions), [5, 8], JSON.stringify(tags));
    const r = inspectMesh(built.mesh);
    assert.ok(r.closed && r.volume > 0 && r.degenerate === 0, JSON.stringify(r));
    assert.ok(Math.abs(r.volume - 40 * 8 * 3) < 1e-6, `${r.volume}`);
  }
  // building:min_level lifts a deck too.
  const byLevel = buildSpec({ 'building:part': 'bridge', 'building:min_level': '2', 'building:levels': '3' }, footprint);
  assert.deepEqual(zRange(byLevel.built.mesh.positions), [6, 9]);
});

test('a bridge part with neither min_height nor building:min_level stands on the ground, and its notes say so', () => {
  const { spec, built } = buildSpec({ 'building:part': 'bridge', height: '8', layer: '1' }, rect(0, 0, 40, 8));
  assert.deepEqual(zRange(built.mesh.positions), [0, 8]);
  assert.deepEqual(spec.notes, ['bridge without min_height or building:min_level: built from the ground']);
  // min_height=0 is the data saying so: nothing to note.
  assert.deepEqual(buildSpec({ 'building:part': 'bridge', height: '8', min_height: '0' }, rect(0, 0, 40, 8)).spec.notes, []);
});

test('through the building builder, a bridge deck part keeps its min_height', () => {
  const frame = createLocalFrame(43.735, 7.419);
  const area = (id: string, x: number, y: number, w: number, d: number, tags: Record<string, string>): OsmFeature => {
    const ring = [
      [x, y],
      [x + w, y],
      [x + w, y + d],
      [x, y + d],
    ].flatMap(([px, py]) => frame.toLonLat(px, py));
    return { id, layer: tags['building:part'] ? 'building_part' : 'building', kind: 'area', tags, polygons: [[ring]] };
  };
  const meshes = buildBuildings(
    [
      area('way/1', 0, 0, 60, 10, { building: 'bridge', man_made: 'bridge', height: '9' }),
      area('way/2', 0, 0, 60, 10, { 'building:part': 'bridge', bridge: 'viaduct', min_height: '6;6.5', height: '9' }),
    ],
    { frame, polygon: [-1e4, -1e4, 1e4, -1e4, 1e4, 1e4, -1e4, 1e4], defaultLevels: 2, defaultLevelHeight: 3, defaultRoofType: 'flat', owns: () => true },
  );
  const deck = meshes.find((m) => m.descriptor.id === 'way/2')!;
  assert.ok(deck, 'the deck is built');
  const [lo, hi] = zRange(deck.mesh.positions);
  assert.ok(Math.abs(lo - 6) < 1e-6 && Math.abs(hi - 9) < 1e-6, `${lo}..${hi}`);
  assert.equal(deck.descriptor.buildingMinHeight, 6);
  assert.deepEqual(deck.descriptor.dataNotes, ['min_height=6;6.5: several values, the smallest (6) used']);
});
