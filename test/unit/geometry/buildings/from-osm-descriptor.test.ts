import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createLocalFrame } from '../../../../src/frame/local-frame.ts';
import { buildBuildings } from '../../../../src/geometry/buildings/from-osm.ts';
import { loadRoofs } from '../../../../src/geometry/buildings/roofs/index.ts';
import { inspectMesh } from '../../../../src/geometry/mesh-checks.ts';
import type { OsmFeature } from '../../../../src/osm-model/feature.ts';

before(async () => {
  await loadRoofs();
});

const frame = createLocalFrame(43.735, 7.419);
const everywhere = [-1e4, -1e4, 1e4, -1e4, 1e4, 1e4, -1e4, 1e4];

/** A w×d metre rectangle at local (x, y) as an OSM area feature. */
function area(id: string, x: number, y: number, w: number, d: number, tags: Record<string, string>): OsmFeature {
  const ring = [
    [x, y],
    [x + w, y],
    [x + w, y + d],
    [x, y + d],
  ].flatMap(([px, py]) => frame.toLonLat(px, py));
  return { id, layer: tags.building ? 'building' : 'building_part', kind: 'area', tags, polygons: [[ring]] };
}

function build(features: OsmFeature[], defaultRoofType: 'flat' | 'hipped' = 'flat') {
  return buildBuildings(features, { frame, polygon: everywhere, defaultLevels: 2, defaultLevelHeight: 3, defaultRoofType, owns: () => true });
}

test('tags reach the descriptor, normalised, and describe the mesh that was built', () => {
  const [b] = build([
    area('way/1', 0, 0, 20, 10, {
      building: 'church',
      name: 'Sainte-Dévote',
      height: "40'",
      'roof:shape': 'half-hipped',
      'roof:height': '3 m',
      'building:colour': 'white',
      'roof:colour': '#a52',
      'roof:material': 'roof_tiles',
      'building:levels': 'lots',
    }),
  ]);
  const d = b.descriptor;
  assert.equal(d.buildingName, 'Sainte-Dévote');
  assert.equal(d.buildingType, 'church');
  assert.equal(d.heightSource, 'height');
  assert.equal(d.buildingHeight, 12.192); // 40 ft
  assert.equal(d.roofType, 'gabled'); // half-hipped is built as gabled…
  assert.equal(d.roofShapeExact, false); // …and says so
  assert.equal(d.roofHeight, 3);
  assert.equal(d.buildingColour, '#ffffff');
  assert.equal(d.roofColour, '#aa5522');
  assert.equal(d.hasDefaultRoof, false);
  assert.deepEqual(d.dataNotes, ['building:levels=lots']);
  const r = inspectMesh(b.mesh);
  assert.ok(r.closed && r.volume > 0 && r.degenerate === 0);
});

test('defaults apply only where the data says nothing, and the descriptor tells which', () => {
  const [plain, tagged] = build(
    [area('way/2', 0, 0, 12, 8, { building: 'yes' }), area('way/3', 30, 0, 12, 8, { building: 'yes', 'building:levels': '5', 'roof:shape': 'flat' })],
    'hipped',
  );
  assert.equal(plain.descriptor.hasDefaultHeight, true);
  assert.equal(plain.descriptor.hasDefaultRoof, true);
  assert.equal(plain.descriptor.roofType, 'hipped');
  assert.ok(Number(plain.descriptor.buildingHeight) > 6, 'two default storeys plus the default roof');
  assert.equal(tagged.descriptor.hasDefaultHeight, false);
  assert.equal(tagged.descriptor.roofType, 'flat');
  assert.equal(tagged.descriptor.buildingHeight, 15);
});

test('a building:part replaces the outline where it stands; the rest of the outline remains', () => {
  const meshes = build([
    area('way/10', 0, 0, 30, 10, { building: 'yes', height: '10' }),
    area('way/11', 0, 0, 10, 10, { 'building:part': 'yes', height: '30', 'roof:shape': 'pyramidal', 'roof:height': '5' }),
  ]);
  const part = meshes.find((m) => m.descriptor.id === 'way/11')!;
  const rest = meshes.find((m) => m.descriptor.outlineRemainder)!;
  assert.equal(part.descriptor.parentId, 'way/10');
  assert.equal(part.descriptor.roofType, 'pyramidal');
  assert.equal(part.descriptor.buildingHeight, 30);
  assert.equal(rest.descriptor.id, 'way/10');
  const xs = [...rest.mesh.positions].filter((_, i) => i % 3 === 0);
  assert.ok(Math.abs(Math.min(...xs) - 10) < 0.002 && Math.abs(Math.max(...xs) - 30) < 0.002, 'the outline remainder is the uncovered 20 m');
  assert.equal(meshes.length, 2);
});
