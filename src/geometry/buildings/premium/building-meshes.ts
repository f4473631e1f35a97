/**
 * A premium building as meshes with descriptors: one closed mesh per part (a building without
 * parts is its own single part), its triangles grouped by surface role with the ranges in the
 * descriptor's `surfaces`. Heights are rebased: the building's lowest point (the bottom of its
 * ground surface in sound data) is z = 0 for every part, so parts stacked in the file stay
 * stacked, and `baseZ` keeps that point's absolute height for the step that sets it on the ground.
 */
import type { BuildingMesh } from '../from-osm.ts';
import type { PremiumBuildingInput } from './input.ts';
import { buildPartMesh } from './part-mesh.ts';
import { roofTypeName } from './roof-codes.ts';

export interface PremiumBuildingMeshes {
  /** Absolute height (file datum) of the building's z = 0. */
  baseZ: number;
  /** One mesh per part that has any surface with an area. */
  meshes: BuildingMesh[];
  /** Everything said about the building (also in its meshes' `dataNotes`); never empty when `meshes` is empty. */
  notes: string[];
}

/** The id of a premium building or part in the descriptor: its dataset, then its id in the file. */
export function premiumId(dataset: string, id: string): string {
  return `${dataset}:${id}`;
}

export function buildPremiumBuilding(building: PremiumBuildingInput): PremiumBuildingMeshes {
  const baseZ = lowestZ(building);
  const notes: string[] = [];
  const meshes: BuildingMesh[] = [];
  const several = building.parts.length > 1;
  for (const part of building.parts) {
    const rebased = part.surfaces.map((s) => ({
      role: s.role,
      rings: s.rings.map((ring) => ring.map((v, i) => (i % 3 === 2 ? v - baseZ : v))),
    }));
    const built = buildPartMesh(rebased);
    const prefix = several ? `part ${part.id}: ` : '';
    if (!built) {
      notes.push(`${prefix}no surface with an area; left out`);
      continue;
    }
    const partNotes = built.notes.map((n) => prefix + n);
    notes.push(...partNotes);
    const roofCode = part.roofType ?? building.roofType;
    const roofType = roofTypeName(roofCode);
    const descriptor: Record<string, unknown> = {
      type: 'building',
      id: premiumId(building.dataset, part.id),
      ...(part.id !== building.id ? { parentId: premiumId(building.dataset, building.id) } : {}),
      buildingName: part.name ?? building.name,
      datasetName: building.datasetName,
      dataTier: 'premium',
      source: building.source,
      lod: part.lod,
      ...(roofType ? { roofType } : {}),
      ...(roofCode && roofCode !== roofType ? { roofTypeCode: roofCode } : {}),
      buildingHeight: round3(built.maxZ),
      buildingMinHeight: round3(built.minZ),
      surfaces: built.surfaces,
      ...(partNotes.length ? { dataNotes: partNotes } : {}),
    };
    meshes.push({ mesh: built.mesh, descriptor });
  }
  // notes about parts that gave no mesh go with the building's first mesh
  if (meshes.length > 0) {
    const own = notes.filter((n) => n.endsWith('left out'));
    if (own.length) {
      const first = meshes[0].descriptor;
      first.dataNotes = [...((first.dataNotes as string[] | undefined) ?? []), ...own];
    }
  } else notes.push('no part has a surface with an area: the building has no mesh');
  return { baseZ, meshes, notes };
}

function lowestZ(building: PremiumBuildingInput): number {
  let min = Infinity;
  for (const part of building.parts)
    for (const s of part.surfaces) for (const ring of s.rings) for (let i = 2; i < ring.length; i += 3) if (ring[i] < min) min = ring[i];
  return Number.isFinite(min) ? min : 0;
}

function round3(v: number): number {
  return Math.round(v * 1000) / 1000;
}
