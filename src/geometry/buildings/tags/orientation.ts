/** OSM `roof:orientation`: whether the ridge runs `along` or `across` the longest side; else null. */
export function parseOrientation(value: string | undefined): 'along' | 'across' | null {
  const text = value?.trim().toLowerCase();
  return text === 'along' || text === 'across' ? text : null;
}
