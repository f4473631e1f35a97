import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { JsonBytesWriter } from '../../../src/encode/json-bytes.ts';
import { writeMeshJson } from '../../../src/encode/mesh-json.ts';

const decode = (w: JsonBytesWriter) => new TextDecoder().decode(w.bytes());

test('numbers are written rounded to millimetres, as JSON.parse reads them', () => {
  fc.assert(
    fc.property(fc.double({ min: -1e8, max: 1e8, noNaN: true }), (x) => {
      const w = new JsonBytesWriter(4);
      w.mm(x);
      const text = decode(w);
      assert.equal(JSON.parse(text), Math.round(x * 1000) / 1000 || 0);
      assert.ok(!/\.\d*0$/.test(text) && text !== '-0', `canonical form: ${text}`);
    }),
    { numRuns: 5000 },
  );
  const w = new JsonBytesWriter();
  w.mm(0.0004).byte(44).mm(-0.0004).byte(44).mm(12.5).byte(44).mm(-3.0001).byte(44).mm(1e3);
  assert.equal(decode(w), '0,0,12.5,-3,1000');
});

test('an export writer rounds to micrometres instead (6 decimals), canonical and as JSON.parse reads them', () => {
  fc.assert(
    fc.property(fc.double({ min: -1e8, max: 1e8, noNaN: true }), (x) => {
      const w = new JsonBytesWriter(4, 6);
      w.mm(x);
      const text = decode(w);
      assert.equal(JSON.parse(text), Math.round(x * 1e6) / 1e6 || 0);
      assert.ok(!/\.\d*0$/.test(text) && text !== '-0', `canonical form: ${text}`);
    }),
    { numRuns: 5000 },
  );
  const w = new JsonBytesWriter(16, 6);
  w.mm(0.0000004).byte(44).mm(-0.0004).byte(44).mm(12.5).byte(44).mm(-3.0000001).byte(44).mm(372617.7266851).byte(44).mm(0.000012);
  assert.equal(decode(w), '0,-0.0004,12.5,-3,372617.726685,0.000012');
});

test('non-finite numbers are refused rather than written as invalid JSON', () => {
  assert.throws(() => new JsonBytesWriter().mm(NaN));
  assert.throws(() => new JsonBytesWriter().mm(Infinity));
});

test('a mesh is written as a flat triangle list or with indices', () => {
  const mesh = { positions: Float64Array.from([0, 0, 0, 1, 0, 0, 0, 1, 0.25]), indices: Uint32Array.from([0, 1, 2]) };
  const flat = new JsonBytesWriter();
  writeMeshJson(flat, mesh, { type: 'x', name: 'é"' }, false);
  assert.deepEqual(JSON.parse(decode(flat)), { vertices: [0, 0, 0, 1, 0, 0, 0, 1, 0.25], descriptor: { type: 'x', name: 'é"' } });
  const indexed = new JsonBytesWriter();
  writeMeshJson(indexed, { positions: mesh.positions, indices: Uint32Array.from([0, 1, 2, 2, 1, 0]) }, {}, true);
  assert.deepEqual(JSON.parse(decode(indexed)), { vertices: [0, 0, 0, 1, 0, 0, 0, 1, 0.25], indices: [0, 1, 2, 2, 1, 0], descriptor: {} });
});
