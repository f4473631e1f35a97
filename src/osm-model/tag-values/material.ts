/**
 * OSM materials (`building:material`, `roof:material`): a lower-case token (`roof_tiles`,
 * `concrete`, `glass`…), common synonyms folded onto the documented value. Free text and lists
 * give null.
 */

const SYNONYMS: Record<string, string> = {
  tile: 'roof_tiles',
  tiles: 'roof_tiles',
  clay_tiles: 'roof_tiles',
  roof_tile: 'roof_tiles',
  rooftiles: 'roof_tiles',
  sheet_metal: 'metal',
  metal_sheet: 'metal',
  tin: 'metal',
  steel: 'metal',
  corrugated_iron: 'metal',
  aluminium: 'metal',
  timber: 'wood',
  wooden: 'wood',
  bricks: 'brick',
  stones: 'stone',
  reinforced_concrete: 'concrete',
  tarpaper: 'tar_paper',
  bitumen: 'tar_paper',
  asphalt: 'tar_paper',
  solar_panel: 'solar_panels',
  thatched: 'thatch',
};

export function parseMaterial(value: string | undefined): string | null {
  if (value === undefined) return null;
  const token = value
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');
  if (!/^[a-z][a-z0-9_]{0,39}$/.test(token)) return null;
  return SYNONYMS[token] ?? token;
}
