/**
 * `surface=*` on an area: what the ground is made of, reduced to the few materials that can
 * change which ground kind an area is. The area rules (rules.ts) decide what each material means
 * for them: the same `surface=asphalt` is `asphalt` on its own, `pavement` on a square and nothing
 * on a car park (a car park is `roadwayArea` whatever it is paved with).
 */
import { valueItems } from '../../../osm-model/tag-values/items.ts';

/** Material classes of `surface=*`. */
export type SurfaceMaterial =
  | 'asphalt' // sealed, the colour of a road
  | 'paved' // slabs, setts, concrete, boards, sports coatings: hard walking ground
  | 'gravel' // loose but walkable: gravel, fine gravel, compacted
  | 'rock' // loose or solid stone too coarse to walk on comfortably: pebbles, shingle, bare rock
  | 'grass' // living or artificial turf
  | 'sand'
  | 'earth'; // dirt, mud, woodchips, unpaved: no kind of ours looks like it

const MATERIALS: Record<string, SurfaceMaterial> = {
  asphalt: 'asphalt',
  chipseal: 'asphalt',
  tarmac: 'asphalt',
  bitumen: 'asphalt',
  paved: 'paved',
  concrete: 'paved',
  'concrete:plates': 'paved',
  'concrete:lanes': 'paved',
  paving_stones: 'paved',
  'paving_stones:30': 'paved',
  'paving_stones:lanes': 'paved',
  sett: 'paved',
  cobblestone: 'paved',
  'cobblestone:flattened': 'paved',
  unhewn_cobblestone: 'paved',
  bricks: 'paved',
  brick: 'paved',
  stone: 'paved',
  marble: 'paved',
  granite: 'paved',
  tiles: 'paved',
  metal: 'paved',
  metal_grid: 'paved',
  wood: 'paved',
  decking: 'paved',
  boardwalk: 'paved',
  tartan: 'paved',
  rubber: 'paved',
  acrylic: 'paved',
  carpet: 'paved',
  plastic: 'paved',
  clay: 'paved',
  hard: 'paved',
  greenset: 'paved',
  grass_paver: 'paved',
  gravel: 'gravel',
  fine_gravel: 'gravel',
  compacted: 'gravel',
  crushed_limestone: 'gravel',
  crushed_rock: 'gravel',
  pebblestone: 'rock',
  shingle: 'rock',
  rock: 'rock',
  rocks: 'rock',
  bare_rock: 'rock',
  stones: 'rock',
  grass: 'grass',
  artificial_turf: 'grass',
  turf: 'grass',
  sand: 'sand',
  dirt: 'earth',
  earth: 'earth',
  ground: 'earth',
  mud: 'earth',
  soil: 'earth',
  unpaved: 'earth',
  woodchips: 'earth',
  snow: 'earth',
  ice: 'earth',
};

/**
 * The material of a `surface=*` value, or null when absent or unknown. A `;` list takes its first
 * known item (`surface=paving_stones;grass` → paved).
 */
export function parseSurfaceMaterial(value: string | undefined): SurfaceMaterial | null {
  for (const item of valueItems(value)) {
    const material = MATERIALS[item];
    if (material) return material;
  }
  return null;
}

/** Every `surface=*` value the parser knows, by material (for the documentation table and tests). */
export function surfaceValuesOf(material: SurfaceMaterial): string[] {
  return Object.keys(MATERIALS).filter((v) => MATERIALS[v] === material);
}
