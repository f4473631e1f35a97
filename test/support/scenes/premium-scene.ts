/**
 * An export scene of real premium building meshes: every building of the bundled Berlin sample and
 * of the Zürich sample, imported into a temporary store and built as a request would build them
 * (store → premiumMeshInput → buildPremiumBuilding), each sample in a local frame at its own
 * centre, Zürich's shifted 2 km east so the two do not overlap; plus one OSM-like box building
 * without surface ranges, so both kinds of building meet in one file.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLocalFrame } from '../../../src/frame/local-frame.ts';
import { buildPremiumBuilding } from '../../../src/geometry/buildings/premium/building-meshes.ts';
import { premiumMeshInput } from '../../../src/sources/premium/mesh-input.ts';
import { buildingsInBox, listDatasets, openPremiumStore } from '../../../src/sources/premium/store.ts';
import type { ExportMesh, ExportScene } from '../../../src/export/scene.ts';
import { importBundledSamples } from '../premium-areas.ts';
import { boxMesh } from './export-scenes.ts';

/** The samples' meshes, in metres around each sample's centre (Zürich 2 km east), Z up. */
export async function premiumSampleMeshes(): Promise<ExportMesh[]> {
  const dir = mkdtempSync(join(tmpdir(), 'premium-scene-'));
  try {
    const db = openPremiumStore(await importBundledSamples(dir), { readonly: true });
    try {
      const meshes: ExportMesh[] = [];
      for (const dataset of listDatasets(db)) {
        const [minLon, minLat, maxLon, maxLat] = dataset.bbox!;
        const frame = createLocalFrame((minLat + maxLat) / 2, (minLon + maxLon) / 2);
        const shift = dataset.id === 'zurich-sample' ? 2000 : 0;
        for (const building of buildingsInBox(db, dataset.bbox!)) {
          if (building.dataset !== dataset.id) continue;
          for (const { mesh, descriptor } of buildPremiumBuilding(premiumMeshInput(building, dataset, frame)).meshes) {
            const positions = Float64Array.from(mesh.positions);
            for (let i = 0; i < positions.length; i += 3) positions[i] += shift;
            meshes.push({ id: String(descriptor.id), kind: 'building', positions, indices: Uint32Array.from(mesh.indices), descriptor });
          }
        }
      }
      return meshes;
    } finally {
      db.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The premium meshes and one box building without surface ranges, in a local anchored scene (metres). */
export function premiumScene(meshes: readonly ExportMesh[]): ExportScene {
  const box = boxMesh('way/1', 'building', -500, -500, 0, -488, -492, 15);
  return {
    name: 'city-context-premium',
    units: 'm',
    georef: { crs: 'local', origin: { lat: 52.5135, lon: 13.3877 }, originGrid: [0, 0], gridConvergence: 0, placement: 'anchor' },
    groups: [{ name: 'buildings', meshes: [...meshes, box], polylines: [], nodes: [] }],
    attribution: ['Berlin 3D city model open data', 'Zürich LoD2 buildings from the cjio test data'],
  };
}

/** Triangles per role kind over the premium meshes, from their descriptors' ranges (what each file must hold per material or layer). */
export function trianglesPerRoleKind(meshes: readonly ExportMesh[]): Record<string, number> {
  const kinds: Record<string, string> = { roof: 'buildingRoof', wall: 'buildingWall', floor: 'buildingFloor', other: 'building' };
  const out: Record<string, number> = {};
  for (const m of meshes) {
    for (const [role, [, count]] of Object.entries(m.descriptor.surfaces as Record<string, [number, number]>)) {
      if (count > 0) out[kinds[role]] = (out[kinds[role]] ?? 0) + count;
    }
  }
  return out;
}
