import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { jsonShapeProblem } from '../../../src/server/json-shape.ts';

/** Depth and widest object of a parsed value, the slow way. */
function shapeOf(value: unknown): { depth: number; keys: number } {
  if (value === null || typeof value !== 'object') return { depth: 0, keys: 0 };
  const children = Array.isArray(value) ? value : Object.values(value);
  const own = Array.isArray(value) ? 0 : Object.keys(value).length;
  let depth = 0;
  let keys = own;
  for (const child of children) {
    const s = shapeOf(child);
    depth = Math.max(depth, s.depth);
    keys = Math.max(keys, s.keys);
  }
  return { depth: depth + 1, keys };
}

test('the byte scan finds the same depth and widest object as the parsed value, strings with brackets and colons included', () => {
  const key = fc.string({ maxLength: 6 }).map((s) => `${s}:{["\\`);
  const json = fc.letrec((tie) => ({
    value: fc.oneof({ depthSize: 'small' }, fc.string(), fc.integer(), tie('array'), tie('object')),
    array: fc.array(tie('value'), { maxLength: 4 }),
    object: fc.dictionary(key, tie('value'), { maxKeys: 6 }),
  })).value;
  fc.assert(
    fc.property(json, fc.integer({ min: 1, max: 6 }), fc.integer({ min: 0, max: 6 }), (value, maxDepth, maxKeys) => {
      const { depth, keys } = shapeOf(value);
      const expected = depth > maxDepth ? 'too_deep' : keys > maxKeys ? 'too_many_keys' : null;
      const body = Buffer.from(JSON.stringify(value));
      // Both problems present: the scan may meet either first.
      const got = jsonShapeProblem(body, maxDepth, maxKeys);
      if (expected === 'too_deep' && keys > maxKeys) assert.ok(got !== null);
      else assert.equal(got, expected);
    }),
  );
});
