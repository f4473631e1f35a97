/**
 * Which buildings are cut out of the ground (src/features/surfaces/building-cut-outs.ts): walls
 * standing on the ground are; building sites, underground buildings, roofs on posts and anything
 * that starts above the ground are not, so the ground runs on under them.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createLocalFrame } from '../../../../src/frame/local-frame.ts';
import { buildingCutOuts } from '../../../../src/features/surfaces/building-cut-outs.ts';
import type { OsmFeature } from '../../../../src/osm-model/feature.ts';

const frame = createLocalFrame(43.73, 7.42);
const d = 0.0001; // ~8–11 m
const square = (i: number): number[][][] => {
  const lon = 7.42 + 3 * i * d,
    lat = 43.73;
  return [[[lon, lat, lon + d, lat, lon + d, lat + d, lon, lat + d]]];
};
const building = (i: number, tags: Record<string, string>, layer: OsmFeature['layer'] = 'building'): OsmFeature => ({
  id: `way/${i}`,
  layer,
  tags,
  kind: 'area',
  polygons: square(i),
});

test('walls on the ground are cut out; sites, underground, roofs on posts and floating parts are not', () => {
  const kept = [
    building(1, { building: 'yes' }),
    building(2, { building: 'apartments', 'building:levels': '5' }),
    building(3, { 'building:part': 'yes', height: '20' }, 'building_part'),
    building(4, { building: 'yes', min_height: '0' }),
    building(5, { building: 'yes', layer: '-1' }), // layer alone is not underground (buildings family agrees)
  ];
  const skipped = [
    building(10, { building: 'construction' }),
    building(11, { building: 'yes', location: 'underground' }),
    building(12, { building: 'roof' }),
    building(13, { building: 'carport' }),
    building(14, { 'building:part': 'yes', min_height: '12' }, 'building_part'),
    building(15, { building: 'yes', 'building:min_level': '2' }),
    building(16, { building: 'yes', layer: '-1', parking: 'underground' }),
  ];
  const cut = buildingCutOuts([...kept, ...skipped], frame);
  assert.equal(cut.length, kept.length);
  // the footprints are the kept buildings', in order, each ~8 × 11 m
  const areas = cut.map((f) => {
    let a = 0;
    for (let i = 0; i < f.outer.length; i += 2) {
      const j = (i + 2) % f.outer.length;
      a += f.outer[i] * f.outer[j + 1] - f.outer[j] * f.outer[i + 1];
    }
    return a / 2;
  });
  for (const a of areas) assert.ok(a > 80 && a < 100, `area ${a}`);
  const xs = cut.map((f) => Math.min(...f.outer.filter((_, i) => i % 2 === 0)));
  assert.deepEqual(
    xs.map((x, i) => (i === 0 ? 0 : Math.round((x - xs[0]) / 24.1))),
    [0, 1, 2, 3, 4],
  );
});

test('lines, points and other layers are never cut out', () => {
  const line: OsmFeature = { id: 'way/20', layer: 'building', tags: { building: 'yes' }, kind: 'line', line: [7.42, 43.73, 7.421, 43.73] };
  const park: OsmFeature = { id: 'way/21', layer: 'landcover', tags: { leisure: 'park' }, kind: 'area', polygons: square(0) };
  assert.deepEqual(buildingCutOuts([line, park], frame), []);
});
