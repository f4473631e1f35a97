import assert from 'node:assert/strict';
import { test } from 'node:test';
import { NOMINAL_HEIGHT } from '../../../../../src/geometry/instances/catalogue.ts';
import { inspectMesh } from '../../../../../src/geometry/mesh-checks.ts';
import { FURNITURE_TYPES, furnitureModel } from '../../../../../src/geometry/instances/models/street-furniture.ts';

/** The nominal heights of the types that are node types (bollards are barrier nodes: 0.9 m). */
const TOP: Record<string, number> = { ...NOMINAL_HEIGHT, bollard: 0.9 };

test('street furniture models: closed, outward, light, standing on z = 0 and as tall as the type nominally is', () => {
  for (const type of FURNITURE_TYPES) {
    const m = furnitureModel(type);
    const r = inspectMesh(m);
    assert.ok(r.closed && r.volume > 0 && r.degenerate === 0 && r.nonFinite === 0, `${type}: ${JSON.stringify(r)}`);
    assert.ok(m.indices.length / 3 <= 128, `${type}: ${m.indices.length / 3} triangles`);
    let minZ = Infinity,
      maxZ = -Infinity;
    for (let i = 2; i < m.positions.length; i += 3) {
      minZ = Math.min(minZ, m.positions[i]);
      maxZ = Math.max(maxZ, m.positions[i]);
    }
    assert.equal(minZ, 0, `${type} stands on the ground`);
    assert.ok(Math.abs(maxZ - TOP[type]) < 0.02, `${type}: top ${maxZ}, nominal ${TOP[type]}`);
  }
});
