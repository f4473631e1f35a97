/**
 * The binary mesh chunk an export's tiles send (src/encode/mesh-binary.ts): every item comes back
 * with its exact doubles, its indices and its descriptor, wherever the chunk lies in memory, and a
 * JSON chunk is never taken for one.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { isMeshBinary, readMeshBinary, writeMeshBinary } from '../../../src/encode/mesh-binary.ts';
import { JsonBytesWriter } from '../../../src/encode/json-bytes.ts';
import { writeMeshJson } from '../../../src/encode/mesh-json.ts';

const item = fc.record({
  positions: fc
    .array(fc.double({ noNaN: true, noDefaultInfinity: true }), { maxLength: 60 })
    .map((a) => Float64Array.from(a.slice(0, a.length - (a.length % 3)))),
  indices: fc.array(fc.nat(), { maxLength: 60 }).map((a) => Uint32Array.from(a)),
  descriptor: fc.dictionary(fc.string(), fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.array(fc.integer(), { maxLength: 3 }))),
});

test('a binary chunk gives back every item: exact doubles, indices, descriptors, in order', () => {
  fc.assert(
    fc.property(fc.array(item, { maxLength: 12 }), fc.nat(7), (items, shift) => {
      const chunk = writeMeshBinary(items.map((i) => ({ mesh: { positions: i.positions, indices: i.indices }, descriptor: i.descriptor })));
      assert.ok(isMeshBinary(chunk));
      // wherever the chunk lies in a larger buffer (a reader copies it when its doubles would be unaligned)
      const placed = new Uint8Array(chunk.length + shift).subarray(shift);
      placed.set(chunk);
      for (const c of [chunk, placed]) {
        const back = readMeshBinary(c);
        assert.equal(back.length, items.length);
        back.forEach((b, n) => {
          assert.deepEqual([...b.positions], [...items[n].positions]);
          assert.deepEqual([...b.indices], [...items[n].indices]);
          assert.deepEqual(b.descriptor, JSON.parse(JSON.stringify(items[n].descriptor)));
        });
      }
    }),
    { numRuns: 300 },
  );
});

test("the items' arrays are views of an aligned chunk: rewriting them rewrites the chunk (no copy)", () => {
  const chunk = writeMeshBinary([
    { mesh: { positions: Float64Array.of(1, 2, 3, 4, 5, 6, 7, 8, 9), indices: Uint32Array.of(0, 1, 2) }, descriptor: { id: 'way/1' } },
  ]);
  const [a] = readMeshBinary(chunk);
  a.positions[0] = 42;
  assert.equal(readMeshBinary(chunk)[0].positions[0], 42);
  assert.equal(a.positions.buffer, chunk.buffer);
});

test('JSON items, empty bytes and a cut chunk are not read as binary', () => {
  const w = new JsonBytesWriter(64, 6);
  writeMeshJson(w, { positions: Float64Array.of(0, 0, 0, 1, 0, 0, 0, 1, 0), indices: Uint32Array.of(0, 1, 2) }, { id: 'way/1' }, true);
  assert.equal(isMeshBinary(w.bytes()), false);
  assert.equal(isMeshBinary(new Uint8Array(0)), false);
  const chunk = writeMeshBinary([{ mesh: { positions: Float64Array.of(1, 2, 3), indices: Uint32Array.of(0) }, descriptor: { id: 'n' } }]);
  assert.throws(() => readMeshBinary(chunk.subarray(0, chunk.length - 2)), /shorter than its header/);
  assert.throws(() => readMeshBinary(w.bytes()), /not a binary mesh chunk/);
});
