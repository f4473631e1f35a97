import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from '../../src/config.ts';
import { importOsm } from '../../src/sources/osm/import.ts';
import { OsmStore } from '../../src/sources/osm/store.ts';
import { createLocalFrame } from '../../src/frame/local-frame.ts';
import { buildBuildings, type BuildingMesh } from '../../src/geometry/buildings/from-osm.ts';
import { inspectMesh } from '../../src/geometry/mesh-checks.ts';
import { ROOF_SHAPES, type RoofShape } from '../../src/geometry/buildings/roofs/types.ts';
import { loadRoofs } from '../../src/geometry/buildings/roofs/index.ts';

const EXTRACTS = {
  monaco: { file: 'data/monaco/monaco.osm.pbf', origin: [43.735, 7.419] },
  region: { file: 'data/monaco/monaco-region-2016.osm.pbf', origin: [43.74, 7.42] },
} as const;
const stores: Record<string, OsmStore> = {};

before(async () => {
  await loadRoofs();
  const dir = mkdtempSync(join(tmpdir(), 'cc-buildings-'));
  for (const [name, { file }] of Object.entries(EXTRACTS)) {
    await importOsm(join(REPO_ROOT, file), join(dir, `${name}.sqlite`));
    stores[name] = OsmStore.open(join(dir, `${name}.sqlite`));
  }
});

/** Every building of an extract through the real builder, with a polygon that covers them all. */
function buildAll(name: keyof typeof EXTRACTS, defaultRoofType: RoofShape = 'flat'): { meshes: BuildingMesh[]; features: number } {
  const { origin } = EXTRACTS[name];
  const frame = createLocalFrame(origin[0], origin[1]);
  const features = stores[name].query({ minLon: -180, minLat: -90, maxLon: 180, maxLat: 90 }, ['building', 'building_part']).filter((f) => f.kind === 'area');
  const polygon = [-50000, -50000, 50000, -50000, 50000, 50000, -50000, 50000];
  const meshes = buildBuildings(features, { frame, polygon, defaultLevels: 1, defaultLevelHeight: 4, defaultRoofType, owns: () => true });
  return { meshes, features: features.length };
}

function judge(meshes: BuildingMesh[]) {
  const bad: string[] = [];
  const perRoof: Record<string, number> = {};
  const fallbacks: Record<string, number> = {};
  for (const m of meshes) {
    const r = inspectMesh(m.mesh);
    if (!r.closed || r.volume <= 0 || r.degenerate > 0 || r.nonFinite > 0) bad.push(`${m.descriptor.id} ${JSON.stringify(r)}`);
    // the descriptor tells the truth about the built mesh
    let top = -Infinity,
      bottom = Infinity;
    for (let i = 2; i < m.mesh.positions.length; i += 3) {
      top = Math.max(top, m.mesh.positions[i]);
      bottom = Math.min(bottom, m.mesh.positions[i]);
    }
    if (Math.abs(top - Number(m.descriptor.buildingHeight)) > 0.002 || Math.abs(bottom - Number(m.descriptor.buildingMinHeight)) > 0.002) {
      bad.push(`${m.descriptor.id} spans ${bottom}..${top} but says ${m.descriptor.buildingMinHeight}..${m.descriptor.buildingHeight}`);
    }
    const roof = String(m.descriptor.roofType);
    perRoof[roof] = (perRoof[roof] ?? 0) + 1;
    if (m.descriptor.roofFallback) {
      const asked = /^(\w+) roof/.exec(String(m.descriptor.roofFallback))?.[1] ?? '?';
      const key = `${asked}→${roof}`;
      fallbacks[key] = (fallbacks[key] ?? 0) + 1;
    }
  }
  return { bad, perRoof, fallbacks };
}

/** Every default roof shape over Monaco; over the much larger region the shapes of the main constructions. */
const SHAPES_PER_EXTRACT: Record<keyof typeof EXTRACTS, readonly RoofShape[]> = {
  monaco: ROOF_SHAPES,
  region: ['flat', 'gabled', 'hipped', 'dome'],
};

for (const name of Object.keys(EXTRACTS) as (keyof typeof EXTRACTS)[])
  for (const shape of SHAPES_PER_EXTRACT[name]) {
    test(`every building of the ${name} extract is a closed, outward 2-manifold (default roof ${shape})`, () => {
      const { meshes, features } = buildAll(name, shape);
      const ids = new Set(meshes.map((m) => m.descriptor.id));
      const { bad, perRoof, fallbacks } = judge(meshes);
      const parts = meshes.filter((m) => m.descriptor.parentId).length;
      const remainders = meshes.filter((m) => m.descriptor.outlineRemainder).length;
      console.log(
        `${name}/${shape}: ${features} building features → ${meshes.length} meshes (${parts} parts, ${remainders} outline remainders); roofs ${JSON.stringify(perRoof)}; fallbacks ${JSON.stringify(fallbacks)}`,
      );
      // every feature is built, except outlines whose parts cover them completely
      const replaced = new Set(meshes.filter((m) => m.descriptor.parentId).map((m) => m.descriptor.parentId));
      for (const m of meshes) replaced.delete(m.descriptor.id);
      assert.equal(ids.size + replaced.size, features, 'no building dropped');
      assert.deepEqual(bad.slice(0, 5), []);
    });
  }
