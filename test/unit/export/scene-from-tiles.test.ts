/**
 * The tiles' encoded items (indexed meshes, nodes, polylines in local Z-up metres) become an
 * ExportScene: ids, kinds, colours and terrain names carried over, groups in the writers' order,
 * positions through the export frame, node headings turned by the grid convergence.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createExportFrame, resolveExportCrs } from '../../../src/export/georef.ts';
import { sceneFromTiles } from '../../../src/export/scene-from-tiles.ts';
import { writeMeshBinary } from '../../../src/encode/mesh-binary.ts';

const enc = (items: unknown[]) => new TextEncoder().encode(items.map((i) => JSON.stringify(i)).join(','));
const ORIGIN = [43.7335, 7.419] as const;

const mesh = { vertices: [0, 0, 0, 10, 0, 0, 0, 10, 0], indices: [0, 1, 2], descriptor: { type: 'building', id: 'way/7', buildingColour: '#ff8000' } };
const terrain = { vertices: [0, 0, 1, 10, 0, 1, 0, 10, 1], indices: [0, 1, 2], descriptor: { type: 'terrain', tile: [2, 3] } };
const node = { type: 'bench', x: 5, y: 5, z: 0, rotation: 1, scale: 1, descriptor: { type: 'bench', id: 'node/9' } };
const line = { vertices: [0, 0, 0, 5, 0, 0], closed: false, descriptor: { type: 'asphalt', kind: 'centerline', id: 'way/8' } };

test('scene from tile chunks: groups in order, ids, kinds, colours, frame applied, headings turned', () => {
  const frame = createExportFrame({ origin: ORIGIN, crs: resolveExportCrs('EPSG:32632'), placement: 'anchor', units: 'mm' });
  const scene = sceneFromTiles(
    {
      name: 'n',
      attribution: ['© OpenStreetMap contributors'],
      groups: [
        { key: 'topography:meshes', chunks: [enc([terrain])] },
        { key: 'instances', chunks: [new Uint8Array(0), enc([node])] },
        { key: 'surfaceLines', chunks: [enc([line])] },
        { key: 'buildings', chunks: [enc([mesh]), enc([mesh])] },
        { key: 'barriers', chunks: [enc([{ ...mesh, descriptor: { type: 'fence', id: 'way/5', colour: '#000000' } }])] },
      ],
    },
    frame,
  );
  assert.deepEqual(
    scene.groups.map((g) => g.name),
    ['buildings', 'barriers', 'instances', 'topography', 'surfaceLines'],
  );
  assert.deepEqual(scene.groups[1].meshes[0].colour, [0, 0, 0], "a barrier's colour tag");
  scene.groups.splice(1, 1);
  const [b] = scene.groups[0].meshes;
  assert.equal(scene.groups[0].meshes.length, 2);
  assert.equal(b.id, 'way/7');
  assert.equal(b.kind, 'building');
  assert.deepEqual(b.colour, [1, 128 / 255, 0]);
  assert.deepEqual([...b.indices], [0, 1, 2]);
  // the second vertex is 10 m east of the origin: ~10 000 mm along the (slightly turned) grid axes
  const dx = b.positions[3] - b.positions[0],
    dy = b.positions[4] - b.positions[1];
  assert.ok(Math.abs(Math.hypot(dx, dy) - 10_000 * 0.9996) < 5, `${Math.hypot(dx, dy)}`);
  assert.ok(Math.abs(Math.atan2(dy, dx) + frame.georef.gridConvergence) < 1e-4, 'east turned by the convergence');
  assert.equal(scene.groups[2].meshes[0].id, 'terrain/2,3');
  assert.equal(scene.groups[2].meshes[0].positions[2], 1000);
  const n = scene.groups[1].nodes[0];
  assert.equal(n.type, 'bench');
  assert.ok(Math.abs(n.rotation - (1 - frame.georef.gridConvergence)) < 1e-12);
  const l = scene.groups[3].polylines[0];
  assert.deepEqual([l.id, l.kind, l.closed], ['way/8', 'centerline', false]);
  assert.equal(scene.units, 'mm');
  assert.deepEqual(scene.attribution, ['© OpenStreetMap contributors']);
});

test('a wire span becomes its cable: a sagging polyline between its ends, the ends in the file frame, named by line and span', () => {
  const frame = createExportFrame({ origin: ORIGIN, crs: resolveExportCrs('EPSG:32632'), placement: 'absolute', units: 'm' });
  const wire = {
    type: 'wire',
    x: 100,
    y: 50,
    z: 3,
    rotation: 0,
    scale: 1,
    descriptor: { type: 'wire', id: 'way/11', span: 4, from: [0, 50, 27], to: [200, 50, 29], length: 200 },
  };
  const scene = sceneFromTiles({ name: 'n', attribution: [], groups: [{ key: 'instances', chunks: [enc([wire])] }] }, frame);
  const [g] = scene.groups;
  assert.equal(g.nodes.length, 0, 'a wire is not a model');
  const [cable] = g.polylines;
  assert.deepEqual([cable.id, cable.kind, cable.closed], ['way/11#4', 'wire', false]);
  // the ends as the frame places them (absolute UTM), and the descriptor says so too
  const ends = Float64Array.of(0, 50, 27, 200, 50, 29);
  frame.transform(ends);
  const p = cable.points,
    last = p.length - 3;
  assert.ok(Math.hypot(p[0] - ends[0], p[1] - ends[1], p[2] - ends[2]) < 1e-6);
  assert.ok(Math.hypot(p[last] - ends[3], p[last + 1] - ends[4], p[last + 2] - ends[5]) < 1e-6);
  assert.deepEqual(cable.descriptor.from, [...ends.subarray(0, 3)]);
  assert.deepEqual(cable.descriptor.to, [...ends.subarray(3)]);
  assert.ok(ends[1] > 4e6, 'grid northing, not local metres');
  // it sags: the middle point 3 % of the 200 m span (6 m) under the chord's middle (28 m)
  const mid = (p.length / 3 - 1) / 2;
  assert.ok(Math.abs(p[mid * 3 + 2] - (28 - 6)) < 0.01, `middle at ${p[mid * 3 + 2]}`);
});

test("a binary mesh chunk (an export's tiles) gives the scene its JSON items give, to the micrometre", () => {
  const frame = () => createExportFrame({ origin: ORIGIN, crs: resolveExportCrs('EPSG:32632'), placement: 'absolute', units: 'ft' });
  const coloured = { ...mesh, vertices: [0.1234567, -5.5, 2, 10, 0.0004, 3, 0, 10.25, 4] };
  const items = [coloured, terrain, { ...mesh, descriptor: {} }];
  const asBinary = (list: typeof items) =>
    writeMeshBinary(list.map((m) => ({ mesh: { positions: Float64Array.from(m.vertices), indices: Uint32Array.from(m.indices) }, descriptor: m.descriptor })));
  const scene = (chunk: Uint8Array) => sceneFromTiles({ name: 'n', attribution: [], groups: [{ key: 'buildings', chunks: [chunk] }] }, frame());
  const fromJson = scene(enc(items)),
    fromBinary = scene(asBinary(items));
  const [a, b] = [fromJson.groups[0].meshes, fromBinary.groups[0].meshes];
  assert.deepEqual(
    b.map((m) => [m.id, m.kind, m.colour, [...m.indices]]),
    a.map((m) => [m.id, m.kind, m.colour, [...m.indices]]),
  );
  assert.deepEqual(b[2].id, 'buildings/2', 'an item without id is named by its place');
  for (let n = 0; n < a.length; n++)
    for (let i = 0; i < a[n].positions.length; i++) assert.ok(Math.abs(a[n].positions[i] - b[n].positions[i]) < 1e-5, 'the same point, in feet');
  assert.ok(b[0].positions[1] > 1e7, 'in the frame: absolute grid northing in feet');
  const onNodes = () => sceneFromTiles({ name: 'n', attribution: [], groups: [{ key: 'instances', chunks: [asBinary(items)] }] }, frame());
  assert.throws(onNodes, /binary mesh chunk for instances/);
});
