import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { CABLE_SEGMENTS, SAG_SHARE, cablePoints, catenaryParameter } from '../../../../../src/geometry/instances/models/cable.ts';

test('a level span hangs its documented sag at the middle and touches both supports', () => {
  const p = cablePoints([0, 0, 30], [300, 0, 30]);
  assert.equal(p.length, (CABLE_SEGMENTS + 1) * 3);
  assert.deepEqual([...p.subarray(0, 3)], [0, 0, 30]);
  assert.ok(Math.abs(p[p.length - 1] - 30) < 1e-9);
  const mid = (CABLE_SEGMENTS / 2) * 3;
  assert.ok(Math.abs(p[mid + 2] - (30 - SAG_SHARE * 300)) < 1e-6, `middle at ${p[mid + 2]}`);
});

test('the curve is a catenary: a·(cosh(x/a) − 1) below the supports, not a parabola', () => {
  const span = 400,
    a = catenaryParameter(span, 100); // a deep sag, where the two differ by metres
  const p = cablePoints([0, 0, 0], [span, 0, 0], 100 / span, 4);
  // a quarter of the way along: depth a·(cosh(span/2a) − cosh(span/4a))
  const expected = -(a * (Math.cosh(span / (2 * a)) - Math.cosh(span / (4 * a))));
  assert.ok(Math.abs(p[3 + 2] - expected) < 1e-6);
  const parabola = -100 * 4 * 0.25 * 0.75;
  assert.ok(Math.abs(expected - parabola) > 1, 'a parabola would be the same curve');
});

test('any span: the cable is continuous, hangs below its chord, lowest within the span, and sags SAG_SHARE of it at mid-span', () => {
  const xyz = fc.tuple(
    fc.double({ min: -1e4, max: 1e4, noNaN: true }),
    fc.double({ min: -1e4, max: 1e4, noNaN: true }),
    fc.double({ min: 0, max: 200, noNaN: true }),
  );
  fc.assert(
    fc.property(xyz, xyz, ([x0, y0, z0], [x1, y1, z1]) => {
      const span = Math.hypot(x1 - x0, y1 - y0);
      fc.pre(span > 1);
      const p = cablePoints([x0, y0, z0], [x1, y1, z1]);
      for (let k = 0; k <= CABLE_SEGMENTS; k++) {
        const u = k / CABLE_SEGMENTS;
        const chord = z0 + (z1 - z0) * u;
        assert.ok(p[k * 3 + 2] <= chord + 1e-6);
      }
      const mid = (CABLE_SEGMENTS / 2) * 3;
      assert.ok(Math.abs((z0 + z1) / 2 - p[mid + 2] - SAG_SHARE * span) < 1e-6 * Math.max(1, span));
    }),
  );
});
