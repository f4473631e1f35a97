import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { writeDxf } from '../../../../src/export/formats/dxf.ts';
import { nodeInstance, nodeName } from '../../../../src/export/formats/node-models.ts';
import { METRES_PER_UNIT, type ExportNode, type ExportScene, type ExportUnits } from '../../../../src/export/scene.ts';
import { modelKeys, modelMesh } from '../../../../src/geometry/instances/models/index.ts';
import { NOMINAL_HEIGHT } from '../../../../src/geometry/instances/catalogue.ts';
import { assimpMeshes, hasPoint, PYTHON, run, sampleCorner, sampleTriangles, writeTemp } from '../../../support/checks/export-readers.ts';
import { readDxf, type DxfRead } from '../../../support/checks/dxf-reader.ts';
import { SAMPLE_NODE_TRIANGLES, sampleScene } from '../../../support/scenes/export-scenes.ts';

const UNITS: ExportUnits[] = ['m', 'mm', 'ft', 'in'];
const INSUNITS: Record<ExportUnits, number> = { in: 1, ft: 2, mm: 4, m: 6 };

/** DXF's rotation for a node's: degrees in [0, 360). */
const degrees = (rad: number): number => {
  const d = (((rad * 180) / Math.PI) % 360) + (rad < 0 ? 360 : 0);
  return d >= 360 ? d - 360 : d; // a turn a hair below 0 (-5e-324 rad) is 0°, not 360°
};

/** Each node of the scene is one INSERT of its model's block: layer, point, scale, rotation and name as the node says. */
function assertInserts(r: DxfRead, scene: ExportScene, label: string): void {
  const nodes = scene.groups.flatMap((g) => g.nodes.map((node) => ({ group: g.name, node })));
  assert.equal(r.inserts.length, nodes.length, `${label}: one INSERT per node`);
  const byName = new Map(r.inserts.map((i) => [i.name[0], i]));
  for (const { group, node } of nodes) {
    const ins = byName.get(nodeName(node)),
      inst = nodeInstance(node, 'm')!;
    assert.ok(ins, `${label}: an INSERT named ${nodeName(node)}`);
    assert.deepEqual([ins.block, ins.layer], [inst.model, `${group}-${node.type}`], `${label}: ${nodeName(node)}`);
    // exact but for what the writer rounds to 0: below 1e-12 of any unit
    assert.ok(
      ins.at.every((c, k) => Math.abs(c - node.position[k]) <= 1e-12),
      `${label}: ${nodeName(node)} at ${ins.at}`,
    );
    assert.deepEqual(ins.scale, inst.scale, `${label}: ${nodeName(node)} scaled per axis, unitless`);
    assert.ok(Math.abs(ins.rotation - degrees(node.rotation)) < 1e-9, `${label}: ${nodeName(node)} turned ${ins.rotation}°`);
  }
}

for (const placement of ['anchor', 'absolute'] as const) {
  test(`DXF (${placement}): ezdxf audits 0 errors; layers per group and kind; 3DFACEs and 3D POLYLINEs as in the scene; nodes as INSERTs of one block per model; $INSUNITS; georeference noted; the exact corner in every unit`, () => {
    const scenes = UNITS.map((units) => sampleScene({ units, placement }));
    const paths = scenes.map((s) => writeTemp(writeDxf(s)));
    readDxf(paths).forEach((r, i) => {
      const units = UNITS[i],
        scene = scenes[i],
        perMetre = 1 / METRES_PER_UNIT[units];
      assert.deepEqual([r.errors, r.fixes, r.version, r.insunits], [0, 0, 'AC1018', INSUNITS[units]], units);
      for (const l of [
        'buildings-building',
        'surface-asphalt',
        'topography-terrain',
        'surfaceLines-asphalt',
        'instances-tree',
        'instances-bench',
        'georeference',
      ]) {
        assert.ok(r.layers.includes(l), `${units}: layer ${l}`);
      }
      assert.deepEqual(r.faces, { 'buildings-building': 12, 'surface-asphalt': 2, 'topography-terrain': 2 });
      assert.deepEqual(r.polylines, [['surfaceLines-asphalt', true, 3]]);
      // the blocks: each model once, in the file's units, on layer 0 (drawn in the INSERT's layer colour)
      const top = (key: string): number => Math.max(...modelMesh(key).positions.filter((_, j) => j % 3 === 2)) * perMetre;
      assert.deepEqual(Object.keys(r.blocks), ['tree-broadleaf', 'bench']);
      for (const [key, faces] of [
        ['tree-broadleaf', SAMPLE_NODE_TRIANGLES['node/3']],
        ['bench', SAMPLE_NODE_TRIANGLES['node/4']],
      ] as const) {
        const b = r.blocks[key];
        assert.deepEqual([b.faces, b.units, b.layers], [faces, INSUNITS[units], ['0']], `${units}: block ${key}`);
        assert.ok(Math.abs(b.top - top(key)) < 1e-9 * top(key), `${units}: block ${key} ${b.top} high`);
      }
      assertInserts(r, scene, units);
      // the tree stands as tall as its descriptor says (12 m), the bench at its nominal height
      const tree = r.inserts.find((x) => x.block === 'tree-broadleaf')!,
        bench = r.inserts.find((x) => x.block === 'bench')!;
      assert.ok(Math.abs(r.blocks['tree-broadleaf'].top * tree.scale[2] - 12 * perMetre) < 1e-9 * perMetre, `${units}: tree height`);
      assert.ok(Math.abs(r.blocks.bench.top * bench.scale[2] - NOMINAL_HEIGHT.bench * perMetre) < 1e-9 * perMetre, `${units}: bench height`);
      const corner = sampleCorner(METRES_PER_UNIT[units], scene.georef.originGrid);
      assert.ok(hasPoint(r.points, corner, 0), `${units}: corner ${corner}`);
      const note =
        placement === 'anchor'
          ? /^Placement anchor: \(0, 0, 0\) is the origin at WGS84 lat 43\.7335, lon 7\.419/
          : /^Placement absolute: x, y are EPSG:32632 grid coordinates/;
      assert.ok(
        r.comments.some((c) => note.test(c)),
        'header comment',
      );
      assert.ok(
        r.texts.some(([layer, t]) => layer === 'georeference' && note.test(t)),
        'note in the drawing',
      );
    });
    // ezdxf's own command line (recover mode) agrees: 0 errors in every file.
    const audit = run(PYTHON, ['-m', 'ezdxf', 'audit', ...paths]);
    assert.equal(audit.match(/^No errors found\.$/gm)?.length, paths.length, audit);
    // A second reader agrees on the triangles, the blocks expanded at their INSERTs. assimp holds
    // coordinates in float32: at grid coordinates a few of a model's small triangles collapse into
    // lines, so those count too (the linework's lines do not).
    const faces = assimpMeshes(paths[0])
      .filter((m) => !m.name.startsWith('surfaceLines-'))
      .reduce((n, m) => n + m.faces, 0);
    assert.equal(faces, sampleTriangles());
  });
}

test('DXF: a scene with nothing in it audits clean', () => {
  const [r] = readDxf([writeTemp(writeDxf({ ...sampleScene({ units: 'ft' }), groups: [] }))]);
  assert.deepEqual([r.errors, r.fixes, r.insunits, r.faces, r.polylines, r.blocks, r.inserts], [0, 0, 2, {}, [], {}, []]);
});

/** Nodes of every type, trees of every form, turned and scaled any way: what the pipeline may send. */
const nodeArb = fc.record({
  type: fc.constantFrom(...(Object.keys(NOMINAL_HEIGHT) as (keyof typeof NOMINAL_HEIGHT)[]).filter((t) => t !== 'wire')),
  x: fc.double({ min: -500, max: 500, noNaN: true }),
  y: fc.double({ min: -500, max: 500, noNaN: true }),
  z: fc.double({ min: -5, max: 80, noNaN: true }),
  rotation: fc.double({ min: -7, max: 7, noNaN: true }),
  scale: fc.double({ min: 0.05, max: 20, noNaN: true }),
  leafType: fc.constantFrom(undefined, 'broadleaved', 'needleleaved', 'palm'),
  height: fc.option(fc.double({ min: 1, max: 40, noNaN: true }), { nil: undefined }),
});

test('DXF: any nodes become one block per model used (in the model table order) and one INSERT each, read back by ezdxf as the node', () => {
  fc.assert(
    fc.property(fc.array(nodeArb, { minLength: 1, maxLength: 30 }), fc.constantFrom<ExportUnits>('m', 'mm', 'ft'), (drawn, units) => {
      const nodes: ExportNode[] = drawn.map((n, i) => ({
        type: n.type,
        position: [n.x, n.y, n.z],
        rotation: n.rotation,
        scale: n.scale,
        descriptor: { type: n.type, id: `node/${i + 1}`, ...(n.leafType ? { leafType: n.leafType } : {}), ...(n.height ? { height: n.height } : {}) },
      }));
      const scene: ExportScene = { ...sampleScene({ units }), groups: [{ name: 'instances', meshes: [], polylines: [], nodes }] };
      const [r] = readDxf([writeTemp(writeDxf(scene))]);
      assert.deepEqual([r.errors, r.fixes], [0, 0]);
      const keys = nodes.map((n) => nodeInstance(n, 'm')!.model);
      const used = modelKeys().filter((k) => keys.includes(k));
      assert.deepEqual(Object.keys(r.blocks), used, 'one block per model used, in the table order');
      for (const k of used) {
        assert.equal(r.blocks[k].faces, modelMesh(k).indices.length / 3, `block ${k}`);
        assert.equal(r.inserts.filter((i) => i.block === k).length, keys.filter((x) => x === k).length, `inserts of ${k}`);
      }
      assertInserts(r, scene, units);
    }),
    { numRuns: 4 },
  );
});

test('DXF: the same nodes in another order give the same blocks, byte for byte', () => {
  const scene = sampleScene({ units: 'm' });
  const reversed: ExportScene = { ...scene, groups: scene.groups.map((g) => ({ ...g, nodes: [...g.nodes].reverse() })) };
  const blocks = (s: ExportScene): string => {
    const text = Buffer.from(writeDxf(s).bytes as Uint8Array).toString('latin1');
    // handles differ with the order entities come in; the blocks' geometry and names may not
    return text.slice(text.indexOf('\r\nBLOCKS\r\n'), text.indexOf('\r\nENTITIES\r\n')).replace(/\r\n(5|330)\r\n[0-9A-F]+/g, '');
  };
  assert.equal(blocks(reversed), blocks(scene));
  assert.ok(blocks(scene).includes('tree-broadleaf'));
});
