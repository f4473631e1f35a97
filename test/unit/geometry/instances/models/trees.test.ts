import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { inspectMesh } from '../../../../../src/geometry/mesh-checks.ts';
import { TREE_TRIANGLES_MAX, treeForm, treeModel, type TreeForm } from '../../../../../src/geometry/instances/models/trees.ts';

function extent(p: Float64Array): { minZ: number; maxZ: number; width: number } {
  let minZ = Infinity,
    maxZ = -Infinity,
    w = 0;
  for (let i = 0; i < p.length; i += 3) {
    minZ = Math.min(minZ, p[i + 2]);
    maxZ = Math.max(maxZ, p[i + 2]);
    w = Math.max(w, 2 * Math.hypot(p[i], p[i + 1]));
  }
  return { minZ, maxZ, width: w };
}

test('tree models: closed, outward, light, standing on z = 0 and as tall and as wide as asked (fast-check)', () => {
  fc.assert(
    fc.property(
      fc.constantFrom<TreeForm>('broadleaf', 'conifer', 'palm'),
      fc.double({ min: 2, max: 40, noNaN: true }),
      fc.double({ min: 1, max: 25, noNaN: true }),
      (form, height, crown) => {
        const m = treeModel(form, height, crown);
        const r = inspectMesh(m);
        assert.ok(r.closed && r.volume > 0 && r.degenerate === 0 && r.nonFinite === 0, `${form} ${height} ${crown}: ${JSON.stringify(r)}`);
        assert.ok(m.indices.length / 3 <= TREE_TRIANGLES_MAX, `${m.indices.length / 3} triangles`);
        const e = extent(m.positions);
        assert.ok(Math.abs(e.minZ) < 1e-9, `stands on the ground: ${e.minZ}`);
        assert.ok(Math.abs(e.maxZ - height) < 0.03 * height + 1e-9, `${form}: top ${e.maxZ} for ${height}`);
        assert.ok(e.width <= crown * 1.01 + 1e-9 && e.width >= crown * 0.75, `${form}: width ${e.width} for a crown of ${crown}`);
      },
    ),
  );
});

test('tree shapes from tags: palms by genus or species, conifers by leaf type or genus, broadleaf otherwise', () => {
  assert.equal(treeForm({ genus: 'Phoenix' }), 'palm');
  assert.equal(treeForm({ species: 'Washingtonia robusta' }), 'palm');
  assert.equal(treeForm({ leafType: 'needleleaved' }), 'conifer');
  assert.equal(treeForm({ genus: 'Pinus', leafType: 'needleleaved' }), 'conifer');
  assert.equal(treeForm({ species: 'Cupressus sempervirens' }), 'conifer');
  assert.equal(treeForm({ leafType: 'broadleaved', genus: 'Platanus' }), 'broadleaf');
  assert.equal(treeForm({ leafType: 'palm' }), 'palm');
  assert.equal(treeForm({}), 'broadleaf');
});
