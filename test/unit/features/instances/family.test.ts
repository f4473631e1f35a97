import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseContextRequest } from '../../../../src/contract/parse-request.ts';
import { createLocalFrame } from '../../../../src/frame/local-frame.ts';
import { FILL_MIN_SPACING } from '../../../../src/geometry/trees/forest-fill.ts';
import { planTasks } from '../../../../src/features/index.ts';
import { buildTile } from '../../../../src/tile/build-tile.ts';
import { registerOsmSource } from '../../../../src/tile/osm-sources.ts';
import { TreeCap } from '../../../../src/features/instances/tree-cap.ts';
import { TILE_REPORTS } from '../../../../src/plan/tile-result.ts';
import { classifyLayer } from '../../../../src/sources/osm/layers.ts';
import type { OsmFeature } from '../../../../src/osm-model/feature.ts';
import type { OsmSource } from '../../../../src/sources/osm/types.ts';
import { memoryOsmSource } from '../../../support/fakes/osm-source.ts';

/** A small made-up scene 300 m around 43.70 N 7.30 E: a road through a forest, a building and a tree in it, furniture, a power line, a tree row. */
const ORIGIN: [number, number] = [43.7, 7.3];
const frame = createLocalFrame(...ORIGIN);
const ll = (pts: number[]) => pts.flatMap((_, k) => (k % 2 === 0 ? frame.toLonLat(pts[k], pts[k + 1]) : []));

function feature(id: string, kind: OsmFeature['kind'], tags: Record<string, string>, pts: number[]): OsmFeature {
  const f: OsmFeature = { id, kind, tags, layer: classifyLayer(tags, kind) };
  if (kind === 'point') f.point = frame.toLonLat(pts[0], pts[1]);
  else if (kind === 'line') f.line = ll(pts);
  else f.polygons = [[ll(pts)]];
  return f;
}

const FEATURES: OsmFeature[] = [
  feature('way/1', 'line', { highway: 'residential' }, [-200, 0, 200, 0]),
  feature('way/2', 'area', { landuse: 'forest', leaf_type: 'needleleaved' }, [-100, -100, 100, -100, 100, 100, -100, 100]),
  feature('way/3', 'area', { building: 'yes' }, [50, 20, 70, 20, 70, 40, 50, 40]),
  feature('node/1', 'point', { natural: 'tree', height: '18', species: 'Pinus pinea' }, [0, -30]),
  feature('node/2', 'point', { natural: 'tree' }, [60, 30]), // inside the building: a roof garden, left out
  feature('node/3', 'point', { amenity: 'bench' }, [10, 8]),
  feature('node/4', 'point', { amenity: 'bench', direction: 'E' }, [20, 8]),
  feature('node/5', 'point', { highway: 'bus_stop' }, [30, -6]),
  feature('node/10', 'point', { power: 'tower' }, [-150, 50]),
  feature('node/11', 'point', { power: 'tower', height: '40' }, [0, 60]),
  feature('node/12', 'point', { power: 'tower' }, [150, 50]),
  feature('way/4', 'line', { power: 'line', voltage: '63000' }, [-150, 50, 0, 60, 150, 50]),
  feature('way/5', 'line', { natural: 'tree_row' }, [-100, -120, -60, -120]),
  feature('node/6', 'point', { tourism: 'artwork', artwork_type: 'mural' }, [5, 5]),
];

const sourceOf = (features: readonly OsmFeature[]): OsmSource => memoryOsmSource(features);

interface Node {
  type: string;
  x: number;
  y: number;
  z: number;
  rotation: number;
  scale: number;
  descriptor: Record<string, any>;
}

async function run(
  tileSize: number,
  cap = 40000,
  features: readonly OsmFeature[] = FEATURES,
  box = [-250, -250, 250, 250],
  cropScene = false,
): Promise<Node[]> {
  const [x0, y0, x1, y1] = box;
  const ring = [
    [x0, y0],
    [x1, y0],
    [x1, y1],
    [x0, y1],
    [x0, y0],
  ].map(([x, y]) => {
    const [lon, lat] = frame.toLonLat(x, y);
    return [lat, lon];
  });
  const req = parseContextRequest({ polygon: ring, origin: ORIGIN, settings: { geometry: ['instances'], upAxis: 'Z', canopyMaxTrees: cap, cropScene } });
  const path = `fixture-instances#${Math.random()}`;
  registerOsmSource(path, sourceOf(features));
  const plan = planTasks(req, { tileSize, storePath: path, dem: null });
  const nodes: Node[] = [];
  const treeCap = new TreeCap(cap);
  for (const task of plan.tasks) {
    const r = await buildTile(task);
    const json = Buffer.from(r.groups.instances.json).toString('utf8');
    if (json) nodes.push(...JSON.parse(`[${json}]`));
    treeCap.take(r.groups[TILE_REPORTS.cappedTrees]);
  }
  const kept = treeCap.finish();
  if (kept.count) nodes.push(...JSON.parse(`[${Buffer.from(kept.json).toString('utf8')}]`));
  return nodes;
}

test('fixture scene: furniture faces the road or its direction, wires span towers, rows and surveyed trees, fill off obstacles', async () => {
  const nodes = await run(500);
  const byId = (id: string) => nodes.filter((n) => n.descriptor.id === id);
  const close = (a: number, b: number, tol = 0.002) => Math.abs(a - b) <= tol;
  assert.ok(close(byId('node/3')[0].rotation, 1.5 * Math.PI), 'the bench north of the road faces south');
  assert.ok(close(byId('node/4')[0].rotation, 0), 'direction=E');
  assert.ok(close(byId('node/5')[0].rotation, 0.5 * Math.PI), 'the bus stop south of the road faces north');
  assert.equal(byId('node/6').length, 0, 'a mural is not an instance');
  assert.equal(byId('node/2').length, 0, 'a tree inside a building is left out');
  const pine = byId('node/1')[0];
  assert.deepEqual([pine.type, pine.descriptor.height, pine.descriptor.species, pine.descriptor.genus, pine.scale], ['tree', 18, 'Pinus pinea', 'Pinus', 1.8]);
  const wires = nodes.filter((n) => n.type === 'wire').sort((a, b) => a.descriptor.span - b.descriptor.span);
  assert.equal(wires.length, 2);
  assert.deepEqual(
    wires.map((w) => [w.descriptor.from[2], w.descriptor.to[2]]),
    [
      [27, 40],
      [40, 27],
    ],
  );
  assert.ok(close(wires[0].descriptor.length, Math.hypot(150, 10), 0.05) && wires[0].descriptor.voltage === '63000');
  assert.ok(close(wires[0].x, -75, 0.05) && close(wires[0].y, 55, 0.05));
  const row = byId('way/5');
  assert.equal(row.length, 6);
  assert.deepEqual(row.map((n) => n.descriptor.row).sort(), [0, 1, 2, 3, 4, 5]);
  const towers = nodes.filter((n) => n.type === 'transmissionTower');
  assert.deepEqual(towers.map((t) => t.scale).sort(), [1, 1, 1.333]);
  // towers face along the line (cross-arms across it): the end towers along their span, the middle one on the bisector (level here)
  const heading = (id: string) => byId(id)[0].rotation;
  const along = (a: number, b: number) => Math.abs(Math.sin(a - b)) < 1e-3;
  assert.ok(along(heading('node/10'), Math.atan2(10, 150)), `${heading('node/10')}`);
  assert.ok(along(heading('node/12'), Math.atan2(-10, 150)), `${heading('node/12')}`);
  assert.ok(along(heading('node/11'), 0), `${heading('node/11')}`);
  const fill = nodes.filter((n) => n.descriptor.source === 'procedural');
  // needleleaved forest: every 6 m cell planted, minus road, building and surroundings of the surveyed trees
  assert.ok(fill.length > 900 && fill.length < 40000 / 36, `${fill.length} procedural trees`);
  const surveyed = nodes.filter((n) => n.type === 'tree' && n.descriptor.source === 'osm');
  for (const t of fill) {
    assert.ok(Math.abs(t.y) >= 3.5, `on the road: ${t.x},${t.y}`);
    assert.ok(!(t.x > 50 && t.x < 70 && t.y > 20 && t.y < 40), 'in the building');
    assert.ok(t.x > -100 && t.x < 100 && t.y > -100 && t.y < 100, 'in the forest');
    assert.equal(t.descriptor.leafType, 'needleleaved');
    for (const s of surveyed) assert.ok(Math.hypot(t.x - s.x, t.y - s.y) >= 3, 'clear of surveyed trees');
  }
  const sorted = [...fill].sort((a, b) => a.x - b.x);
  for (let i = 0; i < sorted.length; i++) {
    for (let j = i + 1; j < sorted.length && sorted[j].x - sorted[i].x < FILL_MIN_SPACING; j++) {
      assert.ok(Math.hypot(sorted[j].x - sorted[i].x, sorted[j].y - sorted[i].y) >= FILL_MIN_SPACING - 0.002);
    }
  }
});

test('fixture scene: 60 m tiles give exactly the nodes of one 500 m tile; the cap keeps surveyed trees and the lowest-ranked fill', async () => {
  const key = (n: Node) => JSON.stringify(n);
  const [one, many] = await Promise.all([run(500), run(60)]);
  const a = new Set(one.map(key)),
    b = new Set(many.map(key));
  assert.deepEqual([...b].filter((k) => !a.has(k)).slice(0, 3), [], 'only with 60 m tiles');
  assert.deepEqual([...a].filter((k) => !b.has(k)).slice(0, 3), [], 'only with one tile');
  assert.deepEqual(many.map(key).sort(), one.map(key).sort());
  // every plant has an id, one per plant, naming the same plant at the same place in both tilings
  const fillIds = (nodes: Node[]) => new Map(nodes.filter((n) => n.descriptor.source === 'procedural').map((n) => [n.descriptor.id, [n.x, n.y]]));
  const [idsOne, idsMany] = [fillIds(one), fillIds(many)];
  assert.ok(idsOne.size > 900 && [...idsOne.keys()].every((id) => /^fill\/-?\d+,-?\d+\/-?\d+,-?\d+$/.test(id)), [...idsOne.keys()].slice(0, 3).join(' '));
  assert.equal(idsOne.size, one.filter((n) => n.descriptor.source === 'procedural').length, 'no two plants share an id');
  assert.deepEqual([...idsMany].sort(), [...idsOne].sort());
  const plants = one.filter((n) => n.type === 'tree' || n.type === 'shrubbery');
  const capped = await run(500, 100);
  const cappedPlants = capped.filter((n) => n.type === 'tree' || n.type === 'shrubbery');
  assert.equal(cappedPlants.length, 100);
  assert.equal(capped.length - cappedPlants.length, one.length - plants.length);
  assert.equal(cappedPlants.filter((n) => n.descriptor.source === 'osm').length, plants.filter((n) => n.descriptor.source === 'osm').length);
  // the kept fill lies all over the forest: every quadrant keeps some
  const fill = cappedPlants.filter((n) => n.descriptor.source === 'procedural');
  for (const [sx, sy] of [
    [-1, -1],
    [-1, 1],
    [1, -1],
    [1, 1],
  ])
    assert.ok(fill.filter((n) => Math.sign(n.x) === sx && Math.sign(n.y) === sy).length >= 10);
});

test('fixture scene: a wood mapped out into the sea is planted on the land side of the coastline only', async () => {
  // the coastline runs north at x = 40: land on its left (west), sea on its right (OSM's rule)
  const coast = feature('way/20', 'line', { natural: 'coastline' }, [40, -400, 40, 400]);
  const wood = feature('way/21', 'area', { natural: 'wood' }, [-100, -100, 100, -100, 100, 100, -100, 100]);
  for (const tileSize of [500, 90]) {
    const fill = (await run(tileSize, 40000, [coast, wood])).filter((n) => n.descriptor.source === 'procedural');
    assert.ok(
      fill.some((t) => t.x < 30),
      `${tileSize} m tiles: trees on the land`,
    );
    assert.deepEqual(
      fill.filter((t) => t.x > 40).map((t) => [t.x, t.y]),
      [],
      `${tileSize} m tiles: no tree in the sea`,
    );
  }
});

test('cropScene: a power-line span leaving the polygon ends at the boundary, its height taken along the chord', async () => {
  // the polygon starts at x = −100: the first span (tower at x = −150 to x = 0) is cut there
  const close = (a: number, b: number, tol: number) => Math.abs(a - b) <= tol;
  for (const tileSize of [500, 130]) {
    const wires = (await run(tileSize, 40000, FEATURES, [-100, -250, 250, 250], true))
      .filter((n) => n.type === 'wire')
      .sort((a, b) => a.descriptor.span - b.descriptor.span);
    assert.equal(wires.length, 2, `tile ${tileSize}`);
    const [cut, whole] = wires;
    assert.ok(close(cut.descriptor.from[0], -100, 0.002) && close(cut.descriptor.from[1], 50 + 10 / 3, 0.002), JSON.stringify(cut.descriptor.from));
    assert.ok(close(cut.descriptor.from[2], 27 + (40 - 27) / 3, 0.002), `height at the cut ${cut.descriptor.from[2]}`);
    assert.deepEqual(cut.descriptor.to, [0, 60, 40]);
    assert.equal(cut.descriptor.cropped, true);
    assert.ok(close(cut.descriptor.length, Math.hypot(100, (10 * 2) / 3), 0.002));
    assert.ok(close(cut.x, -50, 0.01), 'the node stands in the middle of what is left');
    assert.equal(whole.descriptor.cropped, undefined);
    assert.deepEqual(
      [whole.descriptor.from, whole.descriptor.to],
      [
        [0, 60, 40],
        [150, 50, 27],
      ],
    );
  }
});
