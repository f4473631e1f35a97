/**
 * What a tree is, from OSM: `leaf_type` (broadleaved, needleleaved, mixed, leafless; `palm` is
 * common though unofficial), `leaf_cycle` (evergreen, deciduous, semi_*, mixed), `genus`,
 * `species` (`species:en`/`taxon` as fallbacks), `denotation` (landmark, avenue, natural_monument…).
 */
export interface TreeKind {
  leafType?: string;
  leafCycle?: string;
  genus?: string;
  species?: string;
  denotation?: string;
}

const LEAF_TYPES = new Set(['broadleaved', 'needleleaved', 'mixed', 'leafless', 'palm']);
const LEAF_CYCLES = new Set(['evergreen', 'deciduous', 'semi_evergreen', 'semi_deciduous', 'mixed']);

/** Genera that are palms (lower case), so a tree tagged only `genus=Phoenix` gets a palm's size and shape. */
export const PALM_GENERA: ReadonlySet<string> = new Set([
  'phoenix',
  'washingtonia',
  'trachycarpus',
  'chamaerops',
  'butia',
  'syagrus',
  'livistona',
  'cocos',
  'roystonea',
  'jubaea',
  'sabal',
  'archontophoenix',
  'brahea',
]);

export function parseTreeKind(tags: Readonly<Record<string, string>>): TreeKind {
  const out: TreeKind = {};
  const leafType = tags.leaf_type?.trim().toLowerCase();
  if (leafType && LEAF_TYPES.has(leafType)) out.leafType = leafType;
  const leafCycle = tags.leaf_cycle?.trim().toLowerCase();
  if (leafCycle && LEAF_CYCLES.has(leafCycle)) out.leafCycle = leafCycle;
  const genus = tags.genus?.trim();
  if (genus) out.genus = genus;
  const species = (tags.species ?? tags.taxon ?? tags['species:en'])?.trim();
  if (species) out.species = species;
  if (!out.genus && species) out.genus = species.split(/\s+/)[0];
  if (!out.leafType && out.genus && PALM_GENERA.has(out.genus.toLowerCase())) out.leafType = 'palm';
  const denotation = tags.denotation?.trim();
  if (denotation) out.denotation = denotation;
  return out;
}
