/**
 * The ground of a Monaco slope through the real import and tile path (surfaces family, the bundled
 * elevation tile): no two upward faces of the ground lie on each other (test/support/checks/z-fighting.ts),
 * flat and draped. Two places did: the right sidewalk of way/1019174509 came out of a cut with a
 * lobe a millimetre wide wound backwards (planar/reversed-loops.ts) and its triangulation covered
 * ≈1.1 m² of the footway way/863835503 beside it; the footbridge way/733189343 leaves the ground at
 * a shallow angle, its deck's top within 2 cm of the grass under it (assemble/deck-landings.ts).
 */
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Clipper, FillRule, type Paths64 } from 'clipper2-ts';
import { REPO_ROOT } from '../../../../src/config.ts';
import { importOsm } from '../../../../src/sources/osm/import.ts';
import { parseContextRequest } from '../../../../src/contract/parse-request.ts';
import { planTasks } from '../../../../src/features/index.ts';
import { buildTile } from '../../../../src/tile/build-tile.ts';
import { loadRoofs } from '../../../../src/geometry/buildings/roofs/index.ts';
import { findZFighting } from '../../../support/checks/z-fighting.ts';
import { square } from '../../../support/polygons.ts';

interface Item {
  vertices: number[];
  indices: number[];
  descriptor: Record<string, unknown>;
}

const POLYGON = square(43.7335, 7.419, 250);
let store = '';

before(async () => {
  await loadRoofs();
  store = join(mkdtempSync(join(tmpdir(), 'cc-ground-overlaps-')), 'osm.sqlite');
  await importOsm(join(REPO_ROOT, 'data/monaco/monaco.osm.pbf'), store);
});

/** The ground meshes of the slope (local frame, Z up). */
async function ground(settings: Record<string, unknown>): Promise<Item[]> {
  const req = parseContextRequest({ polygon: POLYGON, settings: { ...settings, crs: 'local', upAxis: 'Z', indexedMeshes: true } });
  const out: Item[] = [];
  for (const task of planTasks(req, { tileSize: 500, storePath: store, dem: null }).tasks) {
    const json = Buffer.from((await buildTile(task)).groups.surface?.json ?? []).toString('utf8');
    if (json) out.push(...(JSON.parse(`[${json}]`) as Item[]));
  }
  return out;
}

function soup(items: readonly Item[]): number[] {
  return items.flatMap((m) => m.indices.flatMap((i) => m.vertices.slice(3 * i, 3 * i + 3)));
}

/** A mesh's triangles in plan, united, on the millimetre grid. */
function plan(item: Item): Paths64 {
  const tris: Paths64 = [];
  for (let t = 0; t < item.indices.length; t += 3)
    tris.push(
      [0, 1, 2].map((k) => ({
        x: Math.round(item.vertices[3 * item.indices[t + k]] * 1000),
        y: Math.round(item.vertices[3 * item.indices[t + k] + 1] * 1000),
      })),
    );
  return Clipper.union(tris, FillRule.NonZero);
}

test('flat: the sidewalk of way/1019174509 and the footway way/863835503 meet without overlapping, and nothing of the ground lies on anything else', async () => {
  const items = await ground({ geometry: ['surface'] });
  const sidewalk = items.find((i) => i.descriptor.id === 'way/1019174509' && i.descriptor.sidewalk === 'right');
  const footway = items.find((i) => i.descriptor.id === 'way/863835503');
  assert.ok(sidewalk && footway, 'both pieces are in the answer');
  const a = plan(sidewalk),
    b = plan(footway);
  // they touch (a shared side), so their boxes overlap: the test looks where the overlap was
  assert.ok(Clipper.getBoundsPaths(a).right >= Clipper.getBoundsPaths(b).right - 1000, 'the pieces reach the same place');
  const overlap = Math.abs(Clipper.areaPaths(Clipper.intersect(a, b, FillRule.NonZero))) / 1e6;
  assert.ok(overlap < 1e-3, `${overlap.toFixed(4)} m² of overlap`);
  const report = findZFighting(soup(items));
  assert.ok(report.upward > 1000, `${report.upward} upward triangles`);
  assert.deepEqual(
    report.spots.map((s) => s.at.map((c) => +c.toFixed(2))),
    [],
  );
});

test('draped: the footbridge way/733189343 leaves the ground without its deck lying on the grass, and nothing else lies on anything', async () => {
  const items = await ground({ geometry: ['surface', 'topography'], projectToTopography: true });
  const deck = items.find((i) => i.descriptor.id === 'way/733189343');
  assert.ok(deck, 'the bridge deck is in the answer');
  const report = findZFighting(soup(items));
  assert.ok(report.upward > 1000, `${report.upward} upward triangles`);
  assert.deepEqual(
    report.spots.map((s) => s.at.map((c) => +c.toFixed(2))),
    [],
  );
});
