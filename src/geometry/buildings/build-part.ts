import type { Footprint, IndexedMesh, Ring } from '../types.ts';
import { MeshBuilder } from '../mesh-builder.ts';
import { triangulateFootprint } from '../triangulate.ts';

/** Roof shapes of the spec (settings.defaultRoofType), in the spec's spelling. */
export const ROOF_SHAPES = [
  'flat', 'hipped', 'gabled', 'onion', 'dome', 'round', 'skillion', 'mansard', 'quadrupleSaltbox', 'saltbox', 'gambrel', 'pyramidal',
] as const;
export type RoofShape = (typeof ROOF_SHAPES)[number];

export interface RoofSpec {
  shape: RoofShape;
  /** Height of the roof above the wall top, metres (0 for flat). */
  height: number;
  /** Direction the roof faces / ridge direction hint, degrees clockwise from north (OSM roof:direction). */
  direction?: number;
  /** OSM roof:orientation. */
  orientation?: 'along' | 'across';
}

export interface BuildingPartSpec {
  /** Bottom of the walls (min_height), metres. */
  baseZ: number;
  /** Top of the walls, where the roof starts, metres. */
  wallTopZ: number;
  roof: RoofSpec;
}

export interface BuiltPart {
  mesh: IndexedMesh;
  /** The roof actually built (differs from the request when a shape fell back to a simpler one). */
  roofShape: RoofShape;
  /** Why the requested shape was not built, when it fell back. */
  roofFallback?: string;
}

/**
 * Builds one building part as a closed solid: floor at `baseZ`, vertical walls along every ring,
 * and a roof. The footprint must be normalised (outer counter-clockwise, holes clockwise).
 * LoD1: every roof is flat at `wallTopZ`.
 */
export function buildBuildingPart(footprint: Footprint, spec: BuildingPartSpec): BuiltPart {
  const mesh = new MeshBuilder();
  addWalls(mesh, footprint.outer, spec.baseZ, spec.wallTopZ);
  for (const hole of footprint.holes) addWalls(mesh, hole, spec.baseZ, spec.wallTopZ);
  addCap(mesh, footprint, spec.wallTopZ, true);
  addCap(mesh, footprint, spec.baseZ, false);
  const fellBack = spec.roof.shape !== 'flat';
  return {
    mesh: mesh.build(),
    roofShape: 'flat',
    ...(fellBack ? { roofFallback: `${spec.roof.shape} roofs are not built yet` } : {}),
  };
}

/** Vertical quads along a ring; for a counter-clockwise outer ring (clockwise hole) they face outwards. */
export function addWalls(mesh: MeshBuilder, ring: Ring, bottomZ: number, topZ: number): void {
  const n = ring.length / 2;
  for (let i = 0; i < n; i++) {
    const j = (i + 1) % n;
    const ax = ring[2 * i], ay = ring[2 * i + 1], bx = ring[2 * j], by = ring[2 * j + 1];
    mesh.quad(mesh.vertex(ax, ay, bottomZ), mesh.vertex(bx, by, bottomZ), mesh.vertex(bx, by, topZ), mesh.vertex(ax, ay, topZ));
  }
}

/** A horizontal cap over the footprint at height z, facing up (roof) or down (floor). */
export function addCap(mesh: MeshBuilder, footprint: Footprint, z: number, facingUp: boolean): void {
  const { coords, triangles } = triangulateFootprint(footprint);
  const ids: number[] = [];
  for (let i = 0; i < coords.length; i += 2) ids.push(mesh.vertex(coords[i], coords[i + 1], z));
  for (let t = 0; t < triangles.length; t += 3) {
    const a = ids[triangles[t]], b = ids[triangles[t + 1]], c = ids[triangles[t + 2]];
    if (facingUp) mesh.triangle(a, b, c);
    else mesh.triangle(a, c, b);
  }
}
