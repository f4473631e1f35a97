import { test } from 'node:test';
import assert from 'node:assert/strict';
import { classifyLayer } from '../../../../src/sources/osm/layers.ts';
import { closedWayIsArea, hasMeaningfulTags } from '../../../../src/sources/osm/tag-rules.ts';
import { wayGeometry } from '../../../../src/sources/osm/way-geometry.ts';

test('layers: first matching rule wins, points default to poi, areas to landcover or other', () => {
  const cases: [Record<string, string>, 'point' | 'line' | 'area', string][] = [
    [{ building: 'yes', shop: 'bakery' }, 'area', 'building'],
    [{ building: 'no', amenity: 'parking' }, 'area', 'landcover'],
    [{ 'building:part': 'yes' }, 'area', 'building_part'],
    [{ 'building:part': 'yes', building: 'hotel' }, 'area', 'building'],
    [{ highway: 'residential' }, 'line', 'highway'],
    [{ highway: 'pedestrian', area: 'yes' }, 'area', 'highway'],
    [{ 'area:highway': 'footway' }, 'area', 'highway'],
    [{ highway: 'street_lamp' }, 'point', 'highway'],
    [{ railway: 'rail' }, 'line', 'railway'],
    [{ barrier: 'wall' }, 'line', 'barrier'],
    [{ barrier: 'fence', landuse: 'grass' }, 'area', 'barrier'],
    [{ natural: 'water' }, 'area', 'water'],
    [{ natural: 'coastline' }, 'line', 'water'],
    [{ waterway: 'stream' }, 'line', 'water'],
    [{ landuse: 'reservoir' }, 'area', 'water'],
    [{ landuse: 'grass' }, 'area', 'landcover'],
    [{ leisure: 'park' }, 'area', 'landcover'],
    [{ man_made: 'pier' }, 'area', 'landcover'],
    [{ natural: 'tree' }, 'point', 'poi'],
    [{ amenity: 'bench' }, 'point', 'poi'],
    [{ amenity: 'bench' }, 'line', 'other'],
    [{ tourism: 'zoo' }, 'area', 'other'],
    [{ power: 'line' }, 'line', 'other'],
  ];
  for (const [tags, kind, layer] of cases) assert.equal(classifyLayer(tags, kind), layer, JSON.stringify(tags));
});

test('tag rules: closed ways are areas only with area semantics; bookkeeping tags do not make a feature', () => {
  assert.equal(closedWayIsArea({ building: 'yes' }), true);
  assert.equal(closedWayIsArea({ highway: 'residential' }), false, 'a closed road is a loop');
  assert.equal(closedWayIsArea({ highway: 'pedestrian', area: 'yes' }), true);
  assert.equal(closedWayIsArea({ landuse: 'grass', area: 'no' }), false);
  assert.equal(closedWayIsArea({ barrier: 'fence' }), false);
  assert.equal(closedWayIsArea({ natural: 'coastline' }), false);
  assert.equal(closedWayIsArea({ natural: 'wood' }), true);
  assert.equal(closedWayIsArea({ railway: 'platform' }), true);
  assert.equal(closedWayIsArea({ waterway: 'riverbank' }), true);
  assert.equal(closedWayIsArea({ waterway: 'canal' }), false);
  assert.equal(closedWayIsArea({ leisure: 'track' }), false);
  assert.equal(closedWayIsArea({ building: 'no', highway: 'service' }), false);
  assert.equal(hasMeaningfulTags({ source: 'survey', created_by: 'JOSM', 'source:date': '2010' }), false);
  assert.equal(hasMeaningfulTags({ source: 'survey', natural: 'tree' }), true);
  assert.equal(hasMeaningfulTags({ type: 'multipolygon' }, ['type']), false);
});

test('way geometry: closed areas come out counter-clockwise without the closing point; degenerate ways are null', () => {
  const clockwiseSquare = [0, 0, 0, 1, 1, 1, 1, 0, 0, 0];
  assert.deepEqual(wayGeometry(clockwiseSquare, true, { building: 'yes' }), { kind: 'area', polygons: [[[1, 0, 1, 1, 0, 1, 0, 0]]] });
  assert.deepEqual(wayGeometry(clockwiseSquare, true, { highway: 'service' }), { kind: 'line', line: clockwiseSquare });
  assert.deepEqual(wayGeometry([0, 0, 0, 0, 1, 1, 1, 1], false, { highway: 'path' }), { kind: 'line', line: [0, 0, 1, 1] });
  assert.equal(wayGeometry([0, 0, 1, 1, 0, 0], true, { building: 'yes' }), null);
  assert.equal(wayGeometry([5, 5, 5, 5], false, { highway: 'path' }), null);
});
