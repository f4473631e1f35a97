import assert from 'node:assert/strict';
import { test } from 'node:test';
import { modelKind, modelParts } from '../../../../src/export/formats/model-parts.ts';
import { modelKeys, modelMesh } from '../../../../src/geometry/instances/models/index.ts';

test('every model split into parts that hold each of its triangles once; a tree is a trunk (thin, at the foot, on the axis) and a crown above it', () => {
  for (const key of modelKeys()) {
    const { positions, indices } = modelMesh(key);
    const parts = modelParts(key);
    const seen = parts.flatMap((p) => {
      const tris: string[] = [];
      for (let t = 0; t < p.indices.length; t += 3) tris.push(`${p.indices[t]},${p.indices[t + 1]},${p.indices[t + 2]}`);
      return tris;
    });
    const all: string[] = [];
    for (let t = 0; t < indices.length; t += 3) all.push(`${indices[t]},${indices[t + 1]},${indices[t + 2]}`);
    assert.deepEqual(seen.sort(), all.sort(), key);
    if (!key.startsWith('tree-')) {
      assert.deepEqual(
        parts.map((p) => p.kind),
        [modelKind(key)],
        key,
      );
      continue;
    }
    assert.deepEqual(
      parts.map((p) => p.kind),
      ['trunk', 'tree'],
      key,
    );
    const zs = (ix: Uint32Array) => Array.from(ix, (i) => positions[i * 3 + 2]);
    const radius = (ix: Uint32Array) => Math.max(...Array.from(ix, (i) => Math.hypot(positions[i * 3], positions[i * 3 + 1])));
    const [trunk, crown] = parts;
    assert.equal(Math.min(...zs(trunk.indices)), 0, `${key}: the trunk stands on the ground`);
    assert.ok(Math.max(...zs(trunk.indices)) < Math.max(...zs(crown.indices)), `${key}: the crown tops the trunk`);
    assert.ok(radius(trunk.indices) < radius(crown.indices) / 2, `${key}: a trunk thinner than half the crown`);
  }
});
