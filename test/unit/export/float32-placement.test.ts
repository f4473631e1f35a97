/**
 * The refusal of absolute placement in float32 formats: refused exactly when float32 would round
 * a coordinate near the origin's grid position by more than 0.5 mm, with the step and the loss named.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { float32PlacementError, float32Step } from '../../../src/export/float32-placement.ts';
import { METRES_PER_UNIT, type ExportGeoreference, type ExportUnits } from '../../../src/export/scene.ts';

const georef = (originGrid: [number, number], placement: 'anchor' | 'absolute' = 'absolute'): ExportGeoreference => ({
  crs: 32632,
  origin: { lat: 43.7335, lon: 7.419 },
  originGrid,
  gridConvergence: 0,
  placement,
});

test('a Monaco UTM northing in STL is a 400 naming the 0.5 m step and what to use instead; anchor placement, other formats and local frames pass', () => {
  const err = float32PlacementError('stl', georef([370_150, 4_843_120]), 'm')!;
  assert.equal(err.status, 400);
  assert.equal(err.code, 'invalid_setting');
  assert.match(
    err.message,
    /STL stores coordinates as float32: absolute EPSG:32632 grid coordinates near 4,843,120 m would be rounded to steps of 0\.5 m \(up to 0\.25 m off\)/,
  );
  assert.match(err.message, /placement "anchor".*obj, ply, dae or dxf/);
  assert.deepEqual(err.details[0].path, ['export', 'placement']);
  assert.match(float32PlacementError('stl', georef([370_150_000, 4_843_120_000]), 'mm')!.message, /steps of 512 mm \(up to 0\.256 m off\)/);
  assert.equal(float32PlacementError('stl', georef([370_150, 4_843_120], 'anchor'), 'm'), null);
  for (const format of ['ply', 'obj', 'dae', 'dxf', 'glb'] as const)
    assert.equal(float32PlacementError(format, georef([370_150, 4_843_120]), 'm'), null, format);
  assert.equal(float32PlacementError('stl', { ...georef([0, 0]), crs: 'local' }, 'm'), null);
});

test('refused exactly when float32 rounds some coordinate up to the origin grid magnitude by more than 0.5 mm', () => {
  fc.assert(
    fc.property(
      fc.double({ min: 1e-3, max: 2e7, noNaN: true }),
      fc.constantFrom<ExportUnits>('m', 'mm', 'ft', 'in'),
      fc.double({ min: 0.5, max: 1, noNaN: true }),
      (metres, units, at) => {
        const v = metres / METRES_PER_UNIT[units];
        const refused = float32PlacementError('stl', georef([v * 0.3, v]), units) !== null;
        // the worst rounding of a float32 within the origin's binade is half its step
        const worst = (float32Step(v) / 2) * METRES_PER_UNIT[units];
        assert.equal(refused, worst > 0.0005, `${v} ${units}`);
        // and the step is float32's own: a value in the binade rounds by at most half of it
        const x = v * at;
        assert.ok(Math.abs(Math.fround(x) - x) <= float32Step(v) / 2 + 1e-12 * v);
      },
    ),
  );
});
