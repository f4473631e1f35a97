import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { parseBuildingTags } from '../../../../../src/geometry/buildings/tags/index.ts';
import type { BuildingTagDefaults } from '../../../../../src/geometry/buildings/tags/index.ts';
import { ROOF_SHAPES } from '../../../../../src/geometry/buildings/roofs/types.ts';

const DEFAULTS: BuildingTagDefaults = { defaultLevels: 1, defaultLevelHeight: 4, defaultRoofType: 'flat' };

test('height comes from height, else levels × level height (+ roof), else the default levels', () => {
  const h = parseBuildingTags({ building: 'yes', height: '15', 'building:levels': '3' }, DEFAULTS);
  assert.equal(h.height, 15);
  assert.equal(h.heightSource, 'height');
  assert.equal(h.levels, 3);
  assert.equal(h.hasDefaultHeight, false);
  const l = parseBuildingTags({ building: 'yes', 'building:levels': '3' }, DEFAULTS);
  assert.deepEqual([l.height, l.wallHeight, l.heightSource], [12, 12, 'levels']);
  const roofLevels = parseBuildingTags({ building: 'yes', 'building:levels': '3', 'roof:levels': '1', 'roof:shape': 'gabled' }, DEFAULTS);
  assert.deepEqual([roofLevels.height, roofLevels.wallHeight, roofLevels.roofHeight, roofLevels.roofHeightSource], [16, 12, 4, 'roof:levels']);
  const d = parseBuildingTags({ building: 'yes' }, { ...DEFAULTS, defaultLevels: 2, defaultLevelHeight: 3 });
  assert.deepEqual([d.height, d.heightSource, d.hasDefaultHeight, d.hasDefaultRoof, d.roofShape], [6, 'default', true, true, 'flat']);
});

test('roof height from roof:height, else roof:levels, else roof:angle over the half-width, else a per-shape default', () => {
  const base = { building: 'yes', height: '20', 'roof:shape': 'gabled' };
  const byTag = parseBuildingTags({ ...base, 'roof:height': '3.5', 'roof:levels': '2', 'roof:angle': '45' }, { ...DEFAULTS, footprintHalfWidth: 5 });
  assert.deepEqual([byTag.roofHeight, byTag.wallHeight, byTag.roofHeightSource], [3.5, 16.5, 'roof:height']);
  const byLevels = parseBuildingTags({ ...base, 'roof:levels': '2', 'roof:angle': '45' }, { ...DEFAULTS, footprintHalfWidth: 5 });
  assert.deepEqual([byLevels.roofHeight, byLevels.roofHeightSource], [8, 'roof:levels']);
  const byAngle = parseBuildingTags({ ...base, 'roof:angle': '45' }, { ...DEFAULTS, footprintHalfWidth: 5 });
  assert.ok(Math.abs(byAngle.roofHeight - 5) < 1e-9);
  assert.equal(byAngle.roofHeightSource, 'roof:angle');
  const skillion = parseBuildingTags({ ...base, 'roof:shape': 'skillion', 'roof:angle': '45' }, { ...DEFAULTS, footprintHalfWidth: 5 });
  assert.ok(Math.abs(skillion.roofHeight - 10) < 1e-9, 'a skillion rises over the whole width');
  const byDefault = parseBuildingTags(base, { ...DEFAULTS, footprintHalfWidth: 5 });
  assert.equal(byDefault.roofHeightSource, 'default');
  assert.ok(byDefault.roofHeight > 2 && byDefault.roofHeight < 3.5, `${byDefault.roofHeight}`);
  const noWidth = parseBuildingTags(base, DEFAULTS);
  assert.equal(noWidth.roofHeight, 4, 'one storey when the footprint is unknown');
  const flat = parseBuildingTags({ building: 'yes', 'roof:height': '3' }, DEFAULTS);
  assert.deepEqual([flat.roofHeight, flat.roofHeightSource], [0, 'flat']);
});

test('every shape has a sensible default roof height', () => {
  for (const shape of ROOF_SHAPES) {
    const t = parseBuildingTags({ building: 'yes', 'building:levels': '2', 'roof:shape': shape }, { ...DEFAULTS, footprintHalfWidth: 6 });
    if (shape === 'flat') assert.equal(t.roofHeight, 0);
    else assert.ok(t.roofHeight >= 0.5 && t.roofHeight <= 12, `${shape}: ${t.roofHeight}`);
    assert.equal(t.wallHeight, 8);
  }
});

test('min height from min_height, else building:min_level × level height; contradictions ignored and reported', () => {
  assert.equal(parseBuildingTags({ 'building:part': 'yes', height: '30', min_height: '12' }, DEFAULTS).minHeight, 12);
  const byLevel = parseBuildingTags({ 'building:part': 'yes', 'building:levels': '5', 'building:min_level': '3' }, DEFAULTS);
  assert.deepEqual([byLevel.minHeight, byLevel.height], [12, 20]);
  const above = parseBuildingTags({ building: 'yes', height: '10', min_height: '12' }, DEFAULTS);
  assert.equal(above.minHeight, 0);
  assert.deepEqual(above.ignored, ['min_height=12']);
  // A part that is all roof: the roof shrinks to the space it has.
  const roofOnly = parseBuildingTags({ 'building:part': 'roof', height: '12', min_height: '10', 'roof:shape': 'dome', 'roof:height': '5' }, DEFAULTS);
  assert.deepEqual([roofOnly.roofHeight, roofOnly.wallHeight, roofOnly.roofHeightSource], [2, 10, 'fitted']);
});

test('nonsense is ignored, the default used, and the result says so', () => {
  const t = parseBuildingTags(
    { building: 'yes', height: '-5', 'building:levels': 'many', 'roof:shape': 'many', 'roof:colour': 'rainbow', 'roof:direction': 'up' },
    DEFAULTS,
  );
  assert.deepEqual([t.height, t.heightSource, t.hasDefaultHeight, t.roofShape, t.hasDefaultRoof], [4, 'default', true, 'flat', true]);
  assert.deepEqual(t.ignored.sort(), ['building:levels=many', 'height=-5', 'roof:colour=rainbow', 'roof:direction=up', 'roof:shape=many'].sort());
  assert.equal(parseBuildingTags({ building: 'yes', height: '5000' }, DEFAULTS).heightSource, 'default');
  assert.equal(parseBuildingTags({ building: 'yes', height: '0' }, DEFAULTS).heightSource, 'default');
});

test('roof description, colours and materials are carried through', () => {
  const t = parseBuildingTags(
    {
      building: 'church',
      'roof:shape': 'half-hipped',
      'roof:direction': 'SW',
      'roof:orientation': 'across',
      'roof:colour': 'Dark Red',
      'building:colour': '#ABC',
      'roof:material': 'tiles',
      'building:material': 'stone',
    },
    DEFAULTS,
  );
  assert.deepEqual([t.roofShape, t.roofShapeExact, t.hasDefaultRoof, t.roofDirection, t.roofOrientation], ['gabled', false, false, 225, 'across']);
  assert.deepEqual(t.colours, { building: '#aabbcc', roof: '#8b0000' });
  assert.deepEqual(t.materials, { building: 'stone', roof: 'roof_tiles' });
});

test('property: for any tags, heights are finite, ordered and within bounds', () => {
  const value = fc.oneof(
    fc.string(),
    fc.double().map(String),
    fc.integer({ min: -50, max: 2000 }).map(String),
    fc.constantFrom('12 m', "40'", '3', 'gabled', 'SW', 'red'),
  );
  const keys = ['height', 'min_height', 'building:levels', 'building:min_level', 'roof:levels', 'roof:height', 'roof:angle', 'roof:shape', 'roof:direction'];
  fc.assert(
    fc.property(
      fc.dictionary(fc.constantFrom(...keys), value),
      fc.constantFrom(...ROOF_SHAPES),
      fc.option(fc.double({ min: 0.5, max: 80, noNaN: true }), { nil: undefined }),
      (tags, defaultRoofType, halfWidth) => {
        const t = parseBuildingTags(tags, { defaultLevels: 2, defaultLevelHeight: 3.5, defaultRoofType, footprintHalfWidth: halfWidth });
        for (const v of [t.height, t.minHeight, t.wallHeight, t.roofHeight]) assert.ok(Number.isFinite(v) && v >= 0, JSON.stringify(t));
        assert.ok(t.minHeight <= t.wallHeight + 1e-9 && t.wallHeight <= t.height + 1e-9, JSON.stringify(t));
        assert.ok(Math.abs(t.height - t.wallHeight - t.roofHeight) < 1e-9);
        assert.ok(t.height > 0);
        if (t.roofShape === 'flat') assert.equal(t.roofHeight, 0);
      },
    ),
    { numRuns: 1000 },
  );
});

test('every distinct tag set on Monaco buildings parses, and the real values come out as tagged', () => {
  const fixture = JSON.parse(readFileSync(new URL('../../../../fixtures/monaco-building-tags.json', import.meta.url), 'utf8')) as {
    features: { id: string; tags: Record<string, string> }[];
  };
  const sources: Record<string, number> = {};
  for (const { id, tags } of fixture.features) {
    const t = parseBuildingTags(tags, DEFAULTS);
    assert.deepEqual(t.ignored, [], id);
    sources[t.heightSource] = (sources[t.heightSource] ?? 0) + 1;
    if (tags.height) assert.equal(t.height, Number(tags.height), id);
    else if (tags['building:levels'] && Number(tags['building:levels']) > 0) assert.equal(t.wallHeight, Number(tags['building:levels']) * 4, id);
  }
  const byId = new Map(fixture.features.map((f) => [f.id, f.tags]));
  const find = (pred: (tags: Record<string, string>) => boolean) => [...byId.values()].find(pred)!;
  assert.equal(
    parseBuildingTags(
      find((t) => t.height === '45.58'),
      DEFAULTS,
    ).height,
    45.58,
  );
  assert.equal(
    parseBuildingTags(
      find((t) => t['roof:direction'] === 'SW'),
      DEFAULTS,
    ).roofDirection,
    225,
  );
  assert.equal(
    parseBuildingTags(
      find((t) => t['roof:shape'] === 'half-hipped'),
      DEFAULTS,
    ).roofShape,
    'gabled',
  );
  assert.equal(
    parseBuildingTags(
      find((t) => t['roof:levels'] === '0.5'),
      { ...DEFAULTS, defaultRoofType: 'gabled' },
    ).roofHeight,
    2,
  );
  console.log(`monaco: ${fixture.features.length} distinct tag sets, height sources ${JSON.stringify(sources)}`);
});
