import assert from 'node:assert/strict';
import { test } from 'node:test';
import { NOMINAL_HEIGHT } from '../../../../../src/geometry/instances/catalogue.ts';
import { MODEL_TRIANGLES_MAX } from '../../../../../src/geometry/instances/models/index.ts';
import { MONUMENT_TYPES, monumentModel } from '../../../../../src/geometry/instances/models/monuments.ts';
import { modelShape } from '../../../../support/checks/model-shape.ts';

test('monuments: closed outward solids within the budget, on z = 0, as tall as their type nominally is', () => {
  for (const type of MONUMENT_TYPES) {
    const s = modelShape(monumentModel(type));
    assert.ok(s.solid, `${type}: ${s.report}`);
    assert.ok(s.triangles <= MODEL_TRIANGLES_MAX, `${type}: ${s.triangles} triangles`);
    assert.equal(s.min[2], 0, `${type} stands on the ground`);
    assert.ok(Math.abs(s.max[2] - NOMINAL_HEIGHT[type]) < 0.02, `${type}: top ${s.max[2]}`);
  }
});

test('a statue is a figure on a plinth: slim above the plinth, the big one with an arm raised to one side', () => {
  for (const type of ['statueSmall', 'statueBig'] as const) {
    const p = monumentModel(type).positions;
    const h = NOMINAL_HEIGHT[type];
    let plinth = 0,
      figure = 0;
    for (let i = 0; i < p.length; i += 3) {
      const r = Math.max(Math.abs(p[i]), Math.abs(p[i + 1]));
      if (p[i + 2] < 0.2 * h) plinth = Math.max(plinth, r);
      else if (p[i + 2] > 0.5 * h) figure = Math.max(figure, r);
    }
    assert.ok(figure < 0.75 * plinth, `${type}: figure ${figure} m out, plinth ${plinth}`);
  }
  // the raised hand: above the shoulders, the big statue reaches out to one side (−y), beside its head
  const big = monumentModel('statueBig').positions;
  let left = 0,
    right = 0;
  for (let i = 0; i < big.length; i += 3)
    if (big[i + 2] > 0.92 * NOMINAL_HEIGHT.statueBig) {
      if (big[i + 1] > 0) left = Math.max(left, big[i + 1]);
      else right = Math.max(right, -big[i + 1]);
    }
  assert.ok(right > left + 0.3, `raised arm out to ${right} m, the other side ${left}`);
});

test('the sculpture is open: a ring, nothing at its middle', () => {
  const p = monumentModel('sculpture').positions;
  const s = modelShape(monumentModel('sculpture'));
  const mid = (s.max[2] + 0.13 * NOMINAL_HEIGHT.sculpture) / 2;
  for (let i = 0; i < p.length; i += 3) assert.ok(Math.hypot(p[i + 1], p[i + 2] - mid) > 0.5, `a point in the ring's opening at ${p.slice(i, i + 3)}`);
});
