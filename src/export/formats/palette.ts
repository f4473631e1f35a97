/**
 * Fallback colours per feature kind (sRGB 0–1) for writers whose format carries materials, used
 * when neither the data nor the scene gives a colour. Kinds are descriptor `type`s (docs/design.md).
 */
const PALETTE: Record<string, [number, number, number]> = {
  building: [0.85, 0.83, 0.8],
  terrain: [0.55, 0.6, 0.45],
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
  tree: [0.2, 0.5, 0.2],
  trunk: [0.42, 0.32, 0.22],
  wire: [0.15, 0.15, 0.15],
  centerline: [1, 0.85, 0.2],
  outline: [0.95, 0.95, 0.95],
};

const OTHER: [number, number, number] = [0.6, 0.6, 0.6];

export function kindColour(kind: string): [number, number, number] {
  return PALETTE[kind] ?? OTHER;
}

/** sRGB component (0–1) to linear, as glTF base colour factors are linear. */
export function srgbToLinear(c: number): number {
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
}
