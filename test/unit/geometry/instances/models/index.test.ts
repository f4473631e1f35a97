import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { NOMINAL_HEIGHT } from '../../../../../src/geometry/instances/catalogue.ts';
import { MODEL_TRIANGLES_MAX, modelKeys, modelMesh, modelPlacement } from '../../../../../src/geometry/instances/models/index.ts';
import { MARKER_KEY } from '../../../../../src/geometry/instances/models/marker.ts';
import type { NodeType } from '../../../../../src/geometry/instances/types.ts';
import { modelShape } from '../../../../support/checks/model-shape.ts';

const NODE_TYPES = Object.keys(NOMINAL_HEIGHT) as NodeType[];

/**
 * The footprint (metres along x, the model's front, and y) each model should have at its nominal
 * size, from the real objects: a 1.8 m bench, a 3.7 m bus shelter with its stop sign beside it,
 * a pylon's 6 m base under 14 m of cross-arms, a 68 m rotor seen edge-on, a tower crane's 45 m
 * jib and 16 m counter-jib… Models are held to these within a fifth.
 */
const FOOTPRINT: Record<string, [number, number]> = {
  'tree-broadleaf': [6, 6],
  'tree-conifer': [4.3, 4.3],
  'tree-palm': [5.4, 5.7],
  shrubbery: [2, 2],
  bench: [0.45, 1.8],
  picnicTable: [1.5, 1.8],
  busStop: [1.9, 4.2],
  utilityPole: [0.28, 1.8],
  transmissionTower: [6.4, 13.8],
  hydrant: [0.24, 0.36],
  adColumn: [1.4, 1.35],
  trackedCrane: [16.8, 4.6],
  towerCrane: [61, 4.3],
  windTurbine: [11.2, 59],
  memorial: [1.8, 1.8],
  statueSmall: [0.88, 0.88],
  statueBig: [3.2, 3.2],
  sculpture: [1.5, 2.7],
  streetLamp: [1.5, 0.3],
  wasteBasket: [0.5, 0.5],
  postBox: [0.54, 0.54],
  drinkingWater: [0.65, 0.6],
  flagpole: [1.85, 0.12],
  bicycleParking: [0.82, 1.85],
  [MARKER_KEY]: [0.2, 0.2],
};

/** How tall each key's model is built: the type's nominal height; tree forms at 10 m; the marker 1 m. */
function builtHeight(key: string): number {
  if (key.startsWith('tree-')) return NOMINAL_HEIGHT.tree;
  if (key === MARKER_KEY) return 1;
  return NOMINAL_HEIGHT[key as NodeType];
}

test('every node type but wire has a model of its own; a wire has none (it is a cable)', () => {
  const keys = new Set(modelKeys());
  for (const type of NODE_TYPES) {
    const placed = modelPlacement(type, 1, {});
    if (type === 'wire') {
      assert.equal(placed, null);
      continue;
    }
    assert.ok(placed && keys.has(placed.key), `${type}: ${JSON.stringify(placed)}`);
    if (type !== 'tree') assert.equal(placed.key, type, `${type} is drawn by its own model, not the marker`);
  }
  for (const form of ['broadleaf', 'conifer', 'palm']) assert.ok(keys.has(`tree-${form}`));
  // and nothing else is registered: every key draws a type (or is the marker)
  assert.equal(keys.size, NODE_TYPES.length - 2 + 3 + 1);
});

test('every model: a closed outward solid, within the triangle budget, on z = 0, as tall as its type and as wide as the real thing', () => {
  for (const key of modelKeys()) {
    const s = modelShape(modelMesh(key));
    assert.ok(s.solid, `${key}: ${s.report}`);
    assert.ok(s.triangles <= MODEL_TRIANGLES_MAX, `${key}: ${s.triangles} triangles`);
    assert.ok(Math.abs(s.min[2]) < 1e-9, `${key} stands on the ground: ${s.min[2]}`);
    assert.ok(Math.abs(s.max[2] - builtHeight(key)) < 0.02, `${key}: top ${s.max[2]}, nominal ${builtHeight(key)}`);
    const [fx, fy] = FOOTPRINT[key];
    const dx = s.max[0] - s.min[0],
      dy = s.max[1] - s.min[1];
    assert.ok(
      Math.abs(dx - fx) <= 0.2 * fx && Math.abs(dy - fy) <= 0.2 * fy,
      `${key}: footprint ${dx.toFixed(2)} × ${dy.toFixed(2)} m, expected ${fx} × ${fy}`,
    );
    // it stands where the node is: the origin lies within its footprint
    assert.ok(s.min[0] <= 0 && s.max[0] >= 0 && s.min[1] <= 0 && s.max[1] >= 0, `${key} stands at the origin`);
  }
});

test('a model is built once and shared by every node of its type', () => {
  assert.equal(modelMesh('bench'), modelMesh('bench'));
  assert.notEqual(modelMesh('bench'), modelMesh('busStop'));
});

test('any type and scale: the placed model is the type times its scale tall (trees: their height, crown across)', () => {
  fc.assert(
    fc.property(fc.constantFrom(...NODE_TYPES.filter((t) => t !== 'wire' && t !== 'tree')), fc.double({ min: 0.05, max: 20, noNaN: true }), (type, scale) => {
      const p = modelPlacement(type, scale, {})!;
      assert.deepEqual(p.scale, [scale, scale, scale]);
      const top = modelShape(modelMesh(p.key)).max[2] * p.scale[2];
      assert.ok(Math.abs(top - scale * NOMINAL_HEIGHT[type]) < 0.02 * scale, `${type} × ${scale}: top ${top}`);
    }),
  );
  fc.assert(
    fc.property(
      fc.constantFrom({}, { leafType: 'needleleaved' }, { genus: 'Phoenix' }),
      fc.double({ min: 2, max: 40, noNaN: true }),
      fc.double({ min: 1, max: 25, noNaN: true }),
      (kind, height, crown) => {
        const p = modelPlacement('tree', 1, { ...kind, height, crownDiameter: crown })!;
        const s = modelShape(modelMesh(p.key));
        assert.ok(Math.abs(s.max[2] * p.scale[2] - height) < 0.03 * height, `${p.key}: top for ${height}`);
        const across = Math.max(s.max[0] - s.min[0], s.max[1] - s.min[1]) * p.scale[0];
        assert.ok(across <= crown * 1.01 && across >= crown * 0.75, `${p.key}: ${across} across for a crown of ${crown}`);
      },
    ),
  );
});

test("a tree without a size in its descriptor is its scale × 10 m tall, its crown in its form's proportion", () => {
  const p = modelPlacement('tree', 1.5, { leafType: 'needleleaved' })!;
  assert.equal(p.key, 'tree-conifer');
  assert.deepEqual(p.scale, [1.5, 1.5, 1.5]);
});

test('a type no model knows is drawn as the marker, its scale metres tall; a scale that is not a positive number counts as 1', () => {
  const p = modelPlacement('spaceElevator', 3, {})!;
  assert.equal(p.key, MARKER_KEY);
  assert.deepEqual(p.scale, [3, 3, 3]);
  assert.deepEqual(modelPlacement('bench', Number.NaN, {})!.scale, [1, 1, 1]);
  assert.deepEqual(modelPlacement('bench', -2, {})!.scale, [1, 1, 1]);
  assert.equal(modelPlacement('tree-palm', 1, {})!.key, MARKER_KEY, 'a model key is not a node type');
  assert.equal(modelMesh('no such key'), modelMesh(MARKER_KEY));
});
