/**
 * The ground over real HTTP on the Monaco sample: the default request carries a surface group of
 * non-overlapping, upward pieces of many kinds, roads joined through junctions, bridge decks as
 * closed slabs; the pieces' vertices lie on the returned terrain within 1 cm, draped or not
 * (disableSurfaceProjection); linework comes in surfaceLines, without a surface group when meshes
 * are not asked for.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { Clipper, EndType, FillRule, JoinType, type Paths64 } from 'clipper2-ts';
import { GeometryResponseSchema } from '../../src/contract/response-schema.ts';
import type { RunningService } from '../../src/service.ts';
import { postContext, startTestService } from '../support/service/http.ts';
import { square } from '../support/polygons.ts';
import { mapHeight, type Entry } from '../support/service/elevation-map.ts';
import { meshTriangles, type MeshJson } from '../support/service/mesh-triangles.ts';

let svc: RunningService;
let key: string;
before(async () => {
  svc = await startTestService();
  key = svc.demo!.key;
});
after(async () => {
  await svc?.close();
});

const CENTRE = [43.7335, 7.419] as const;
/** Each mesh's plan area as Clipper paths on a 1 mm grid (the union of its triangles). */
function planPaths(m: MeshJson): Paths64 {
  const tris: Paths64 = meshTriangles(m).map((t) => [0, 1, 2].map((k) => ({ x: Math.round(t[3 * k] * 1000), y: Math.round(t[3 * k + 1] * 1000) })));
  return Clipper.union(tris, FillRule.NonZero);
}

const area = (paths: Paths64) => paths.reduce((a, p) => a + Clipper.area(p), 0) / 1e6;

test('default request: a surface group of many kinds, upward, without overlaps, roads joined through junctions', async () => {
  const r = await postContext(svc.url, key, { polygon: square(CENTRE[0], CENTRE[1], 400), origin: CENTRE, settings: { upAxis: 'Z' } });
  assert.equal(r.status, 200, r.text.slice(0, 300));
  GeometryResponseSchema.parse(r.json);
  const surface = r.json.geometry.find((g: { type: string }) => g.type === 'surface');
  assert.ok(surface, 'surface group present by default');
  const meshes: MeshJson[] = surface.meshes;
  const kinds = new Set(meshes.map((m) => m.descriptor.type));
  for (const k of ['asphalt', 'pavement', 'roadwayIntersection']) assert.ok(kinds.has(k), `${k} in ${[...kinds]}`);
  assert.ok(kinds.size >= 6, `kinds ${[...kinds]}`);
  let decks = 0;
  for (const m of meshes) {
    if (m.descriptor.bridge) {
      // a bridge deck is a closed slab, seen from below too: every edge met by one the other way round
      decks++;
      const edges = new Map<string, number>();
      for (const t of meshTriangles(m))
        for (let k = 0; k < 3; k++) {
          const j = (k + 1) % 3;
          const e = `${t.slice(3 * k, 3 * k + 3).join(',')}|${t.slice(3 * j, 3 * j + 3).join(',')}`;
          edges.set(e, (edges.get(e) ?? 0) + 1);
        }
      for (const [e, n] of edges) {
        const [a, b] = e.split('|');
        assert.ok(n === 1 && edges.get(`${b}|${a}`) === 1, `${String(m.descriptor.id)}: deck edge ${e} not closed`);
      }
      continue;
    }
    for (const t of meshTriangles(m)) {
      const cross = (t[3] - t[0]) * (t[7] - t[1]) - (t[6] - t[0]) * (t[4] - t[1]);
      assert.ok(cross > 0, `${String(m.descriptor.id)} has a triangle facing down or degenerate`);
    }
  }
  assert.ok(decks > 0, 'Monaco has bridge decks here');
  // No overlaps: the pieces' areas add up to the area of their union (ground level only; decks float).
  const ground = meshes.filter((m) => !m.descriptor.bridge).map(planPaths);
  const sum = ground.reduce((a, p) => a + area(p), 0);
  const union = area(Clipper.union(ground.flat(), FillRule.NonZero));
  assert.ok(sum - union < 0.001 * union, `overlap ${(sum - union).toFixed(3)} m² of ${union.toFixed(0)} m²`);
  // Every carriageway piece that touches a junction shares an edge with it (not just a corner).
  const junctions = meshes.filter((m) => m.descriptor.type === 'roadwayIntersection').map(planPaths);
  const roads = meshes.filter((m) => m.descriptor.type === 'asphalt').map(planPaths);
  let joined = 0;
  for (const j of junctions) {
    const grown = Clipper.inflatePaths(j, 50, JoinType.Miter, EndType.Polygon); // 5 cm
    if (roads.some((road) => area(Clipper.intersect(grown, road, FillRule.NonZero)) > 0.01)) joined++;
  }
  // (A junction cut by the tile edge can keep only a corner of its road inside the tile: allow a few.)
  assert.ok(junctions.length > 10 && joined >= 0.95 * junctions.length, `${joined} of ${junctions.length} junctions touch a road along an edge`);
});

for (const disableSurfaceProjection of [false, true]) {
  test(`${disableSurfaceProjection ? 'undraped (disableSurfaceProjection) ground keeps its vertices' : 'draped ground lies'} on the returned terrain within 1 cm`, async () => {
    const r = await postContext(svc.url, key, {
      polygon: square(CENTRE[0], CENTRE[1], 300),
      origin: CENTRE,
      settings: { upAxis: 'Z', geometry: ['surface', 'topography'], disableSurfaceProjection },
    });
    assert.equal(r.status, 200, r.text.slice(0, 300));
    const map: Entry = r.json.geometry.find((g: { type: string; geometryType: string }) => g.geometryType === 'elevationMaps').elevationMaps[0];
    const surface = r.json.geometry.find((g: { type: string }) => g.type === 'surface');
    let checked = 0,
      worst = 0;
    for (const m of surface.meshes as MeshJson[]) {
      if (m.descriptor.bridge) continue;
      for (let k = 0; k < m.vertices.length; k += 3) {
        worst = Math.max(worst, Math.abs(m.vertices[k + 2] - mapHeight(map, m.vertices[k], m.vertices[k + 1])));
        checked++;
      }
    }
    assert.ok(checked > 1000, `${checked} vertices`);
    assert.ok(worst <= 0.011, `worst ${worst} m off the terrain`);
  });
}

test('linework: centerlines and outlines in surfaceLines, no surface group without meshes', async () => {
  const r = await postContext(svc.url, key, {
    polygon: square(CENTRE[0], CENTRE[1], 400),
    settings: { geometry: ['surface'], surfaceTypes: ['centerlines', 'outlines'] },
  });
  assert.equal(r.status, 200, r.text.slice(0, 300));
  GeometryResponseSchema.parse(r.json);
  assert.deepEqual(
    r.json.geometry.map((g: { type: string; geometryType: string }) => `${g.type}/${g.geometryType}`),
    ['surfaceLines/polylines'],
  );
  const lines = r.json.geometry[0].polylines as { vertices: number[]; closed: boolean; descriptor: { kind: string; type: string } }[];
  const kinds = new Set(lines.map((l) => l.descriptor.kind));
  assert.deepEqual([...kinds].sort(), ['centerline', 'outline']);
  for (const l of lines) {
    assert.equal(l.vertices.length % 3, 0);
    assert.ok(l.vertices.length >= 6);
    assert.ok(l.descriptor.kind !== 'outline' || l.closed);
  }
});
