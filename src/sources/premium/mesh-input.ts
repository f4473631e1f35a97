/**
 * A stored premium building as the mesh builder's input: its surfaces moved from lon/lat into the
 * request's local frame (heights kept absolute; the builder rebases them) and their semantic
 * classes read as surface roles.
 */
import { projectFlat, type LocalFrame } from '../../frame/local-frame.ts';
import { roleOfClass, type PremiumBuildingInput, type PremiumPartInput } from '../../geometry/buildings/premium/input.ts';
import { SURFACE_CLASSES } from './source-model.ts';
import type { PremiumBuilding, PremiumDataset } from './store.ts';

export function premiumMeshInput(building: PremiumBuilding, dataset: Pick<PremiumDataset, 'id' | 'name' | 'source'>, frame: LocalFrame): PremiumBuildingInput {
  const parts: PremiumPartInput[] = building.parts.map((p) => ({ id: p.id, lod: p.lod, roofType: p.roofType, name: p.name, surfaces: [] }));
  for (const s of building.surfaces) {
    const part = parts[s.part];
    if (!part) continue;
    part.surfaces.push({ role: roleOfClass(SURFACE_CLASSES[s.cls] ?? 'unknown'), rings: s.rings.map((ring) => toLocal(ring, frame)) });
  }
  return {
    id: building.id,
    dataset: dataset.id,
    datasetName: dataset.name,
    source: dataset.source,
    lod: building.lod,
    roofType: building.roofType,
    name: building.name,
    parts,
  };
}

/** Flat lon, lat, z to flat x, y, z in the frame. */
function toLocal(ring: readonly number[], frame: LocalFrame): number[] {
  const lonLat = new Array<number>((2 * ring.length) / 3);
  for (let i = 0, j = 0; i < ring.length; i += 3, j += 2) {
    lonLat[j] = ring[i];
    lonLat[j + 1] = ring[i + 1];
  }
  const xy = projectFlat(frame, lonLat);
  const out = new Array<number>(ring.length);
  for (let i = 0, j = 0; i < ring.length; i += 3, j += 2) {
    out[i] = xy[j];
    out[i + 1] = xy[j + 1];
    out[i + 2] = ring[i + 2];
  }
  return out;
}
