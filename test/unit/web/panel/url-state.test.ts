import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { decodeState, encodeState, type PageState } from '../../../../src/web/panel/url-state.ts';

const coordinate = fc.double({ min: -180, max: 180, noNaN: true });
const state = fc.record({
  polygon: fc.option(fc.array(fc.tuple(coordinate, coordinate), { minLength: 2, maxLength: 12 }), { nil: null }),
  settings: fc.dictionary(fc.string({ minLength: 1 }), fc.oneof(fc.boolean(), fc.string(), fc.array(fc.string()), fc.integer())),
  camera: fc.option(fc.record({ position: fc.tuple(coordinate, coordinate, coordinate), target: fc.tuple(coordinate, coordinate, coordinate) }), { nil: null }),
}) as fc.Arbitrary<PageState>;

test('the URL fragment gives back the polygon, settings and camera it was made from', () => {
  fc.assert(
    fc.property(state, (s) => {
      const back = decodeState(`#${encodeState(s)}`);
      // -0 survives as 0 through text: compare as numbers
      assert.deepEqual(JSON.parse(JSON.stringify(back)), JSON.parse(JSON.stringify(s)));
    }),
  );
});

test('a damaged fragment gives the defaults for what it spoils, not an exception', () => {
  assert.deepEqual(decodeState('#p=1,2;x&s={oops&c=1,2'), { polygon: null, settings: {}, camera: null });
  assert.deepEqual(decodeState('#s=[1]').settings, {});
});
