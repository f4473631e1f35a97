/**
 * One site, one surface, over real HTTP on the Monaco sample (Monaco-Ville's slopes): the draped
 * ground lies on the terrain surface the client draws — vertices, side midpoints and triangle
 * centres — the terrain meshes are exactly that surface and only where the ground leaves it bare,
 * and ground and terrain together cover the site (the polygon plus the returned buildings crossing
 * it, their courtyards included), not the tiles.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { Clipper, FillRule, type Paths64 } from 'clipper2-ts';
import { createLocalFrame } from '../../src/frame/local-frame.ts';
import type { RunningService } from '../../src/service.ts';
import { postContext, startTestService } from '../support/service/http.ts';
import { mapHeight, type Entry } from '../support/service/elevation-map.ts';
import { meshTriangles, type MeshJson } from '../support/service/mesh-triangles.ts';

let svc: RunningService;
before(async () => {
  svc = await startTestService();
});
after(async () => {
  await svc?.close();
});

/** The plan of meshes as Clipper paths on a 1 mm grid (the union of their triangles seen from above). */
function plan(meshes: readonly MeshJson[]): Paths64 {
  const tris: Paths64 = [];
  for (const m of meshes)
    for (const t of meshTriangles(m)) {
      const path = [0, 1, 2].map((k) => ({ x: Math.round(t[3 * k] * 1000), y: Math.round(t[3 * k + 1] * 1000) }));
      if (Clipper.area(path) < 0) path.reverse();
      tris.push(path);
    }
  return Clipper.union(tris, FillRule.NonZero);
}

const area = (paths: Paths64) => paths.reduce((a, p) => a + Math.abs(Clipper.area(p)), 0) / 1e6;

// a diamond (so the tiles' squares cut it at angles) over Monaco-Ville, the palace and the cathedral
const CENTRE = [43.7312, 7.4225] as const;
const R = 190;

test('the ground lies on the terrain surface, the terrain mesh only where the ground is bare, both covering the site', async () => {
  const frame = createLocalFrame(CENTRE[0], CENTRE[1]);
  const local: [number, number][] = [
    [0, -R],
    [R, 0],
    [0, R],
    [-R, 0],
  ];
  const polygon = [...local, local[0]].map(([x, y]) => {
    const [lon, lat] = frame.toLonLat(x, y);
    return [lat, lon];
  });
  const r = await postContext(svc.url, svc.demo!.key, {
    polygon,
    origin: CENTRE,
    settings: { upAxis: 'Z', geometry: ['surface', 'topography', 'buildings'], topographyReturnType: 'both' },
  });
  assert.equal(r.status, 200, r.text.slice(0, 300));
  const topo = r.json.geometry.filter((g: { type: string }) => g.type === 'topography');
  const map: Entry = topo.find((g: { geometryType: string }) => g.geometryType === 'elevationMaps').elevationMaps[0];
  const terrain: MeshJson[] = topo.find((g: { geometryType: string }) => g.geometryType === 'meshes').meshes;
  const ground: MeshJson[] = r.json.geometry.find((g: { type: string }) => g.type === 'surface').meshes.filter((m: MeshJson) => !m.descriptor.bridge);
  const buildings: MeshJson[] = r.json.geometry.find((g: { type: string }) => g.type === 'buildings').meshes;

  // 1. on the surface: vertices within 1 cm, side midpoints and triangle centres within 2 cm
  let worstVertex = 0,
    worstInterior = 0,
    samples = 0;
  for (const m of ground)
    for (const t of meshTriangles(m)) {
      for (let k = 0; k < 9; k += 3) worstVertex = Math.max(worstVertex, Math.abs(t[k + 2] - mapHeight(map, t[k], t[k + 1])));
      for (const [a, b, c] of [
        [1 / 3, 1 / 3, 1 / 3],
        [0.5, 0.5, 0],
        [0, 0.5, 0.5],
        [0.5, 0, 0.5],
      ]) {
        const x = a * t[0] + b * t[3] + c * t[6],
          y = a * t[1] + b * t[4] + c * t[7],
          z = a * t[2] + b * t[5] + c * t[8];
        worstInterior = Math.max(worstInterior, Math.abs(z - mapHeight(map, x, y)));
        samples++;
      }
    }
  assert.ok(samples > 5000, `${samples} samples`);
  assert.ok(worstVertex <= 0.01, `a ground vertex ${worstVertex} m off the terrain surface`);
  assert.ok(worstInterior <= 0.02, `a ground triangle ${worstInterior} m off the terrain surface inside`);
  for (const m of terrain)
    for (let k = 0; k < m.vertices.length; k += 3) assert.ok(Math.abs(m.vertices[k + 2] - mapHeight(map, m.vertices[k], m.vertices[k + 1])) <= 0.01);

  // 2. the terrain mesh is where the ground is not: no overlap in plan (nothing to z-fight)
  const groundPlan = plan(ground),
    terrainPlan = plan(terrain);
  const overlap = area(Clipper.intersect(groundPlan, terrainPlan, FillRule.NonZero));
  assert.ok(area(terrainPlan) > 1000, `terrain under buildings: ${area(terrainPlan)} m²`);
  assert.ok(overlap < 0.001 * area(groundPlan), `ground and terrain overlap over ${overlap} m²`);

  // 3. together they cover the polygon and reach beyond it only under the returned buildings
  const polygonPath: Paths64 = [local.map(([x, y]) => ({ x: Math.round(x * 1000), y: Math.round(y * 1000) }))];
  const covered = Clipper.union(groundPlan, terrainPlan, FillRule.NonZero);
  const inside = area(Clipper.intersect(covered, polygonPath, FillRule.NonZero));
  assert.ok(inside > 0.995 * area(polygonPath), `${inside} of ${area(polygonPath)} m² of the polygon covered`);
  // courtyards of returned buildings are site too (their outer rings: holes left out)
  const outlines = plan(buildings).filter((p) => Clipper.area(p) > 0);
  const site = Clipper.union(polygonPath, outlines, FillRule.NonZero);
  const beyond = area(Clipper.difference(covered, site, FillRule.NonZero));
  // (a few m²: the site follows the mapped outlines, this check the built meshes, which differ slightly)
  assert.ok(beyond < 1e-4 * area(polygonPath), `${beyond} m² of ground or terrain beyond the polygon and the returned buildings`);
  const outsidePolygon = area(Clipper.difference(covered, polygonPath, FillRule.NonZero));
  assert.ok(outsidePolygon > 10, `buildings crossing the edge have ground and terrain round them (${outsidePolygon} m²)`);
});
