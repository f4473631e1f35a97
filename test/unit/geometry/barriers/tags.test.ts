import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseBarrierTags, barrierKind } from '../../../../src/geometry/barriers/tags/index.ts';
import { BARRIER_DEFAULTS, barrierDefault } from '../../../../src/geometry/barriers/defaults.ts';

test('barrier kinds: the issue list on ways and areas; points, cliffs, flush kerbs and bare embankments are not barriers', () => {
  for (const v of [
    'wall',
    'fence',
    'hedge',
    'retaining_wall',
    'city_wall',
    'guard_rail',
    'handrail',
    'jersey_barrier',
    'kerb',
    'bollard',
    'gate',
    'lift_gate',
  ]) {
    assert.equal(barrierKind({ barrier: v }, 'line'), v);
    assert.equal(barrierKind({ barrier: v }, 'area'), v);
    assert.equal(barrierKind({ barrier: v }, 'point'), null);
  }
  assert.equal(barrierKind({ barrier: 'wire_fence' }, 'line'), 'fence');
  assert.equal(barrierKind({ barrier: 'fence;wall' }, 'line'), 'fence');
  assert.equal(barrierKind({ natural: 'cliff' }, 'line'), null);
  assert.equal(barrierKind({ natural: 'cliff', barrier: 'yes' }, 'line'), null);
  assert.equal(barrierKind({ barrier: 'kerb', kerb: 'flush' }, 'line'), null);
  assert.equal(barrierKind({ man_made: 'dyke' }, 'line'), 'dyke');
  assert.equal(barrierKind({ man_made: 'embankment' }, 'line'), null);
  assert.equal(barrierKind({ man_made: 'embankment', wall: 'yes' }, 'line'), 'embankment');
  assert.equal(barrierKind({ man_made: 'embankment', material: 'Concrete' }, 'line'), 'embankment');
  assert.equal(barrierKind({ barrier: 'ditch' }, 'line'), null);
});

test('sizes: height and width in any unit, kerb:height; defaults by kind and material; bad values noted', () => {
  const t = parseBarrierTags({ barrier: 'wall', height: '1.2 m', width: '30 cm', material: 'stone', colour: 'white' }, 'line')!;
  assert.deepEqual([t.height, t.width, t.heightSource, t.widthSource, t.material, t.colour], [1.2, 0.3, 'tag', 'tag', 'stone', '#ffffff']);
  const stone = parseBarrierTags({ barrier: 'wall', material: 'stones' }, 'line')!;
  assert.deepEqual([stone.height, stone.width, stone.heightSource], [2, 0.5, 'default']);
  assert.equal(parseBarrierTags({ barrier: 'wall' }, 'line')!.width, 0.3);
  assert.equal(parseBarrierTags({ barrier: 'kerb', 'kerb:height': '12 cm' }, 'line')!.height, 0.12);
  assert.equal(parseBarrierTags({ barrier: 'kerb', kerb: 'lowered' }, 'line')!.height, 0.05);
  const bad = parseBarrierTags({ barrier: 'fence', height: '0', width: 'thin' }, 'line')!;
  assert.deepEqual([bad.height, bad.width, bad.dataNotes], [1.5, 0.05, ['height=0', 'width=thin']]);
  assert.equal(parseBarrierTags({ barrier: 'city_wall', height: '500' }, 'line')!.height, 8);
});

test('shapes: bollard ways are posts, area=yes hedges are filled, other closed ways are rings; hedges are rounded', () => {
  assert.equal(parseBarrierTags({ barrier: 'bollard' }, 'line')!.shape, 'posts');
  assert.equal(parseBarrierTags({ barrier: 'hedge', area: 'yes' }, 'area')!.shape, 'area');
  assert.equal(parseBarrierTags({ barrier: 'hedge' }, 'area')!.shape, 'strip');
  assert.equal(parseBarrierTags({ barrier: 'fence', area: 'yes' }, 'area')!.shape, 'strip');
  assert.equal(parseBarrierTags({ barrier: 'hedge' }, 'line')!.profile, 'rounded');
});

test('the defaults table has a row without materials for every kind, sizes positive', () => {
  for (const row of BARRIER_DEFAULTS) {
    assert.ok(row.height > 0 && row.width > 0, row.kind);
    assert.doesNotThrow(() => barrierDefault(row.kind, undefined));
  }
});

test('the store files every barrier the family reads under BARRIER_LAYERS (dykes and embankments land in "other")', async () => {
  const { classifyLayer } = await import('../../../../src/sources/osm/layers.ts');
  const { BARRIER_LAYERS } = await import('../../../../src/geometry/barriers/from-osm.ts');
  const layers: readonly string[] = BARRIER_LAYERS;
  const cases: [Record<string, string>, 'line' | 'area'][] = [
    [{ man_made: 'dyke' }, 'line'],
    [{ man_made: 'dyke' }, 'area'],
    [{ man_made: 'embankment', wall: 'yes' }, 'line'],
    [{ man_made: 'embankment', material: 'stone' }, 'area'],
    [{ barrier: 'wall' }, 'line'],
    [{ barrier: 'hedge', area: 'yes' }, 'area'],
    [{ barrier: 'kerb' }, 'area'],
    [{ barrier: 'retaining_wall', natural: 'cliff' }, 'line'],
  ];
  for (const [tags, kind] of cases) assert.ok(layers.includes(classifyLayer(tags, kind)), `${JSON.stringify(tags)} ${kind} → ${classifyLayer(tags, kind)}`);
});
