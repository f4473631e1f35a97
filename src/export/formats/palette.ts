/**
 * THE palette: one colour (sRGB 0–1) per kind of thing the pipeline emits, shared by every file
 * writer (glTF materials, OBJ/DAE materials, PLY vertex colours, DXF layer true colours, 3dm
 * layers, IFC styles) and the viewer, so a hedge is the same green in every program. A colour
 * from the data (`building:colour`, a barrier's `colour`) wins over it; the palette is the
 * fallback. Kinds are descriptor `type`s (docs/design.md): building, terrain, every surface kind,
 * every barrier kind, every node type, the shared models' keys (geometry/instances/models) and
 * the surface linework kinds. The typed table below makes a new surface, barrier or node kind a
 * compile error until it has a colour; model keys are checked by test.
 */
import type { BarrierKind } from '../../geometry/barriers/types.ts';
import type { NodeType } from '../../geometry/instances/types.ts';
import type { SurfaceKind } from '../../geometry/surfaces/types.ts';

export type Rgb = [number, number, number];

/** Kinds beyond the surface, barrier and node kinds: model keys of the tree forms and the linework. */
type OtherKind =
  | 'building'
  | 'buildingRoof'
  | 'buildingWall'
  | 'buildingFloor'
  | 'terrain'
  | 'tree-broadleaf'
  | 'tree-conifer'
  | 'tree-palm'
  | 'trunk'
  | 'marker'
  | 'centerline'
  | 'outline';

const PALETTE = {
  building: [0.85, 0.83, 0.8],
  // premium buildings' surfaces by role (surface-parts.ts): roofs apart from walls in every program
  buildingRoof: [0.62, 0.38, 0.32],
  buildingWall: [0.87, 0.85, 0.81],
  buildingFloor: [0.5, 0.5, 0.5],
  terrain: [0.55, 0.6, 0.45],
  // the ground (surface kinds)
  asphalt: [0.3, 0.3, 0.32],
  roadwayIntersection: [0.3, 0.3, 0.32],
  roadwayArea: [0.35, 0.35, 0.37],
  pavement: [0.7, 0.68, 0.65],
  water: [0.3, 0.5, 0.75],
  farmland: [0.75, 0.7, 0.45],
  grass: [0.45, 0.65, 0.35],
  manicuredGrass: [0.4, 0.7, 0.35],
  forest: [0.25, 0.45, 0.25],
  garden: [0.45, 0.62, 0.38],
  sand: [0.88, 0.8, 0.6],
  rock: [0.55, 0.52, 0.5],
  pitch: [0.4, 0.6, 0.4],
  helipad: [0.5, 0.5, 0.5],
  construction: [0.7, 0.62, 0.5],
  buildingConstruction: [0.7, 0.62, 0.5],
  shrubbery: [0.35, 0.52, 0.3],
  // barriers
  wall: [0.72, 0.68, 0.62],
  fence: [0.55, 0.45, 0.35],
  hedge: [0.22, 0.45, 0.2],
  retaining_wall: [0.62, 0.6, 0.56],
  city_wall: [0.7, 0.62, 0.5],
  guard_rail: [0.75, 0.77, 0.8],
  handrail: [0.6, 0.62, 0.65],
  jersey_barrier: [0.8, 0.79, 0.76],
  kerb: [0.68, 0.67, 0.65],
  bollard: [0.35, 0.35, 0.38],
  gate: [0.45, 0.4, 0.35],
  lift_gate: [0.85, 0.2, 0.2],
  embankment: [0.6, 0.58, 0.5],
  dyke: [0.5, 0.6, 0.4],
  // nodes (shrubbery above) and the tree models
  tree: [0.2, 0.5, 0.2],
  'tree-broadleaf': [0.25, 0.5, 0.2],
  'tree-conifer': [0.15, 0.38, 0.2],
  'tree-palm': [0.4, 0.55, 0.25],
  bench: [0.55, 0.4, 0.25],
  picnicTable: [0.6, 0.45, 0.3],
  busStop: [0.4, 0.5, 0.6],
  utilityPole: [0.45, 0.38, 0.3],
  transmissionTower: [0.6, 0.62, 0.65],
  wire: [0.55, 0.57, 0.62], // bare aluminium conductors; visible on light and dark backgrounds
  hydrant: [0.8, 0.15, 0.1],
  adColumn: [0.85, 0.8, 0.65],
  trackedCrane: [0.95, 0.75, 0.1],
  towerCrane: [0.95, 0.75, 0.1],
  windTurbine: [0.92, 0.93, 0.95],
  memorial: [0.6, 0.58, 0.55],
  statueSmall: [0.5, 0.45, 0.35],
  statueBig: [0.5, 0.45, 0.35],
  sculpture: [0.55, 0.55, 0.5],
  streetLamp: [0.25, 0.28, 0.3],
  wasteBasket: [0.3, 0.35, 0.3],
  postBox: [0.95, 0.8, 0.1],
  drinkingWater: [0.35, 0.45, 0.55],
  flagpole: [0.8, 0.8, 0.82],
  bicycleParking: [0.5, 0.52, 0.55],
  trunk: [0.42, 0.32, 0.22], // tree models' trunks (glTF, COLLADA, OBJ split a tree in two materials)
  marker: [0.9, 0.45, 0.1], // the post standing for a node type without a model: orange, to be noticed
  // surface linework
  centerline: [1, 0.85, 0.2],
  outline: [0.95, 0.95, 0.95],
} satisfies Record<SurfaceKind | BarrierKind | NodeType | OtherKind, Rgb>;

const TABLE: Readonly<Record<string, Rgb>> = PALETTE;

/** For a kind nobody gave a colour (a family added later): a neutral grey. */
const OTHER: Rgb = [0.6, 0.6, 0.6];

export function kindColour(kind: string): Rgb {
  return TABLE[kind] ?? OTHER;
}

/** Whether the palette has a colour of its own for `kind` (not the grey of unknown kinds). */
export function hasKindColour(kind: string): boolean {
  return Object.hasOwn(TABLE, kind);
}

/** sRGB component (0–1) to linear, as glTF base colour factors are linear. */
export function srgbToLinear(c: number): number {
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
}
