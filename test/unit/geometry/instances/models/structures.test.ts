import assert from 'node:assert/strict';
import { test } from 'node:test';
import { NOMINAL_HEIGHT } from '../../../../../src/geometry/instances/catalogue.ts';
import { MODEL_TRIANGLES_MAX } from '../../../../../src/geometry/instances/models/index.ts';
import { STRUCTURE_TYPES, structureModel } from '../../../../../src/geometry/instances/models/structures.ts';
import { modelShape } from '../../../../support/checks/model-shape.ts';

/** The model's points within `dz` of height z (x, y pairs). */
function pointsNear(positions: Float64Array, z: number, dz: number): number[][] {
  const out: number[][] = [];
  for (let i = 0; i < positions.length; i += 3) if (Math.abs(positions[i + 2] - z) <= dz) out.push([positions[i], positions[i + 1]]);
  return out;
}

test('structures: closed outward solids within the budget, on z = 0, as tall as their type nominally is', () => {
  for (const type of STRUCTURE_TYPES) {
    const s = modelShape(structureModel(type));
    assert.ok(s.solid, `${type}: ${s.report}`);
    assert.ok(s.triangles <= MODEL_TRIANGLES_MAX, `${type}: ${s.triangles} triangles`);
    assert.equal(s.min[2], 0, `${type} stands on the ground`);
    assert.ok(Math.abs(s.max[2] - NOMINAL_HEIGHT[type]) < 0.02, `${type}: top ${s.max[2]}`);
  }
});

test('the pylon: a lattice of ≤ 150 triangles, legs spread 6 m at the foot, arms across the line where the wires attach (90 %)', () => {
  const m = structureModel('transmissionTower');
  const s = modelShape(m);
  assert.ok(s.triangles <= 150, `${s.triangles} triangles`);
  const feet = pointsNear(m.positions, 0, 1e-9);
  const spread = Math.max(...feet.map(([x]) => x)) - Math.min(...feet.map(([x]) => x));
  assert.ok(spread > 5.5 && spread < 7, `legs ${spread} m apart`);
  // at the attachment height the model reaches far out across the line (y), not along it (x)
  const arm = pointsNear(m.positions, 0.9 * NOMINAL_HEIGHT.transmissionTower, 0.01);
  assert.ok(Math.max(...arm.map(([, y]) => Math.abs(y))) > 4, 'an arm across the line at 27 m');
  assert.ok(Math.max(...arm.map(([x]) => Math.abs(x))) < 1, 'no arm along the line');
  // a lattice, not a solid: a horizontal cut at mid-height holds only the legs' thin sections
  const mid = m.positions;
  let inside = 0;
  for (let i = 0; i < mid.length; i += 3) if (mid[i + 2] > 8 && mid[i + 2] < 12 && Math.hypot(mid[i], mid[i + 1]) < 1) inside++;
  assert.equal(inside, 0, 'nothing at the axis low down: the tower is open');
});

test('the wind turbine: rotor in front of the tower (+x), three blades sweeping a 68 m circle, a tip at the top above the hub', () => {
  const m = structureModel('windTurbine');
  const s = modelShape(m);
  const h = NOMINAL_HEIGHT.windTurbine;
  assert.ok(s.max[1] - s.min[1] > 0.85 * 68 && s.max[1] - s.min[1] < 68, `rotor ${s.max[1] - s.min[1]} m across (y)`);
  const tip = pointsNear(m.positions, h, 1e-9);
  assert.ok(tip.length > 0 && tip.every(([x, y]) => x > 2 && Math.abs(y) < 0.5), `the top is a blade tip in front: ${JSON.stringify(tip)}`);
});

test('the tower crane reaches forward (+x) with its jib and back with its counter-jib; the crawler crane leans its boom forward', () => {
  const t = modelShape(structureModel('towerCrane'));
  assert.ok(t.max[0] > 40 && t.min[0] < -12, `jib to ${t.max[0]}, counter-jib to ${t.min[0]}`);
  const c = structureModel('trackedCrane');
  const top = pointsNear(c.positions, NOMINAL_HEIGHT.trackedCrane, 1e-9);
  assert.ok(
    top.every(([x]) => x > 5),
    'the boom head stands well in front of the tracks',
  );
});
