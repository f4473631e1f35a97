/**
 * Which buildings are cut out of the ground (src/features/surfaces/building-cut-outs.ts): only
 * where a piece of a building stands on it — walls from the ground, parts that reach it and the
 * outline's area its parts leave uncovered; building sites, underground buildings, roofs on posts
 * and anything that starts above the ground are not cut, so the ground runs on under them. The
 * cut-outs are property-checked against what the buildings family builds.
 */
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { createLocalFrame } from '../../../../src/frame/local-frame.ts';
import { buildingCutOuts } from '../../../../src/features/surfaces/building-cut-outs.ts';
import { buildBuildings, groupFeatures, type BuildingMesh } from '../../../../src/geometry/buildings/from-osm.ts';
import { loadRoofs } from '../../../../src/geometry/buildings/roofs/index.ts';
import { footprintArea, footprintContains } from '../../../../src/geometry/buildings/parts.ts';
import type { OsmFeature } from '../../../../src/osm-model/feature.ts';
import type { Footprint } from '../../../../src/geometry/types.ts';

before(async () => {
  await loadRoofs();
});

const frame = createLocalFrame(43.73, 7.42);
const defaults = { defaultLevels: 2, defaultLevelHeight: 3, defaultRoofType: 'flat' as const };
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

/** An x0..x1 × y0..y1 metre rectangle (local frame) as an area feature. */
function rect(id: string, [x0, y0, x1, y1]: [number, number, number, number], tags: Record<string, string>): OsmFeature {
  const ring = [x0, y0, x1, y0, x1, y1, x0, y1].flatMap((_, k, r) => (k % 2 === 0 ? frame.toLonLat(r[k], r[k + 1]) : []));
  return { id, layer: tags.building ? 'building' : 'building_part', kind: 'area', tags, polygons: [[ring]] };
}

const cutOuts = (features: OsmFeature[]) => buildingCutOuts(groupFeatures(features), frame, defaults);
const total = (fps: readonly Footprint[]) => fps.reduce((a, f) => a + footprintArea(f), 0);

test('walls on the ground are cut out; sites, underground, roofs on posts and floating parts are not', () => {
  const kept = [
    building(1, { building: 'yes' }),
    building(2, { building: 'apartments', 'building:levels': '5' }),
    building(3, { 'building:part': 'yes', height: '20' }, 'building_part'),
    building(4, { building: 'yes', min_height: '0' }),
    building(5, { building: 'yes', layer: '-1' }), // layer alone is not underground (buildings family agrees)
    building(6, { building: 'yes', height: '10', min_height: '12' }), // a bottom above the top is ignored: it stands
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
  const cut = cutOuts([...kept, ...skipped]);
  assert.equal(cut.length, kept.length);
  // the footprints are the kept buildings', each ~8 × 11 m
  for (const f of cut) assert.ok(footprintArea(f) > 80 && footprintArea(f) < 100, `area ${footprintArea(f)}`);
  const xs = cut.map((f) => Math.min(...f.outer.filter((_, i) => i % 2 === 0))).sort((a, b) => a - b);
  assert.deepEqual(
    xs.map((x) => Math.round((x - xs[0]) / 24.1)),
    [0, 1, 2, 3, 4, 5],
  );
});

test('lines and non-building areas in a group list are never cut out', () => {
  const line: OsmFeature = { id: 'way/20', layer: 'building', tags: { building: 'yes' }, kind: 'line', line: [7.42, 43.73, 7.421, 43.73] };
  assert.deepEqual(cutOuts([line]), []);
});

test('an outline whose parts are all lifted leaves the ground whole (Empire State Building, PENN 2)', () => {
  // The outline carries no min_height, but every part over it floats: nothing stands on the ground.
  const lifted = [
    rect('way/30', [0, 0, 60, 40], { building: 'yes', height: '40' }),
    rect('way/31', [0, 0, 30, 40], { 'building:part': 'yes', min_height: '6', height: '40' }),
    rect('way/32', [30, 0, 60, 40], { 'building:part': 'yes', 'building:min_level': '2', 'building:levels': '10' }),
  ];
  assert.deepEqual(cutOuts(lifted), []);
  // A podium standing under half of it: only the podium is cut.
  const podium = [...lifted, rect('way/33', [0, 0, 30, 40], { 'building:part': 'yes', height: '6' })];
  const cut = cutOuts(podium);
  assert.equal(cut.length, 1);
  assert.ok(Math.abs(total(cut) - 1200) < 0.5, `${total(cut)} m²`);
  assert.ok(footprintContains(cut[0], 15, 20) && !footprintContains(cut[0], 45, 20));
});

test('a building standing on an underground one is cut, the underground one is not', () => {
  const cut = cutOuts([
    rect('way/40', [0, 0, 60, 60], { building: 'train_station', location: 'underground', layer: '-1' }),
    rect('way/41', [10, 10, 30, 30], { building: 'office', 'building:part': 'yes', height: '100' }),
    rect('way/42', [40, 40, 50, 50], { 'building:part': 'yes', height: '5' }),
  ]);
  assert.equal(cut.length, 1);
  assert.ok(Math.abs(total(cut) - 400) < 0.5);
});

/** The area of a built solid's floor: its downward faces at its lowest z. */
function floorArea(m: BuildingMesh): number {
  const p = m.mesh.positions,
    ix = m.mesh.indices;
  let lowest = Infinity;
  for (let i = 2; i < p.length; i += 3) lowest = Math.min(lowest, p[i]);
  let a = 0;
  for (let t = 0; t < ix.length; t += 3) {
    const [i, j, k] = [3 * ix[t], 3 * ix[t + 1], 3 * ix[t + 2]];
    if (![p[i + 2], p[j + 2], p[k + 2]].every((z) => Math.abs(z - lowest) < 1e-9)) continue;
    a -= ((p[j] - p[i]) * (p[k + 1] - p[i + 1]) - (p[k] - p[i]) * (p[j + 1] - p[i + 1])) / 2; // downward faces wind clockwise
  }
  return a;
}

const PART_TAGS: Record<string, string>[] = [
  { 'building:part': 'yes' },
  { 'building:part': 'yes', 'building:levels': '4' },
  { 'building:part': 'yes', height: '9' },
  { 'building:part': 'yes', min_height: '5', height: '12' },
  { 'building:part': 'yes', 'building:min_level': '1', 'building:levels': '3' },
  { 'building:part': 'yes', min_height: '30', height: '20' }, // contradictory bottom: ignored, stands
];
const OUTLINE_TAGS: Record<string, string>[] = [
  { building: 'yes' },
  { building: 'yes', height: '15' },
  { building: 'yes', min_height: '4' },
  { building: 'roof' },
];

test('the ground is cut exactly where the built pieces stand: standing parts plus the remainder (property)', () => {
  const strip = fc.record({ width: fc.integer({ min: 3, max: 20 }), part: fc.option(fc.integer({ min: 0, max: PART_TAGS.length - 1 }), { nil: null }) });
  fc.assert(
    fc.property(fc.array(strip, { minLength: 1, maxLength: 5 }), fc.integer({ min: 0, max: OUTLINE_TAGS.length - 1 }), (strips, outlineKind) => {
      const depth = 20;
      const width = strips.reduce((a, s) => a + s.width, 0);
      const outlineTags = OUTLINE_TAGS[outlineKind];
      const features = [rect('way/1', [0, 0, width, depth], outlineTags)];
      let x = 0,
        expected = 0,
        uncovered = 0;
      strips.forEach((s, k) => {
        if (s.part === null) uncovered += s.width * depth;
        else {
          const tags = PART_TAGS[s.part];
          features.push(rect(`way/${10 + k}`, [x, 0, x + s.width, depth], tags));
          if (!(tags.min_height === '5' || tags['building:min_level'])) expected += s.width * depth;
        }
        x += s.width;
      });
      const outlineStands = !outlineTags.min_height && outlineTags.building !== 'roof';
      if (outlineStands && uncovered > 0) expected += uncovered;
      const cut = cutOuts(features);
      assert.ok(Math.abs(total(cut) - expected) < 0.01 * (1 + expected / 100), `cut ${total(cut)} m², expected ${expected} m²`);
      // in step with the buildings family: the floors of the pieces it builds at the ground
      const built = buildBuildings(features, { frame, polygon: [-1e4, -1e4, 1e4, -1e4, 1e4, 1e4, -1e4, 1e4], ...defaults, owns: () => true });
      // a part under a roof outline has walls of its own; the roof's own area does not
      const standing = built.filter((b) => b.descriptor.buildingMinHeight === 0 && (b.descriptor.parentId || b.descriptor.buildingType !== 'roof'));
      const floors = standing.reduce((a, b) => a + floorArea(b), 0);
      assert.ok(Math.abs(total(cut) - floors) < 0.01 * (1 + floors / 100), `cut ${total(cut)} m², standing floors ${floors} m²`);
    }),
  );
});
