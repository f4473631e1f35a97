import type { Attribution } from '../attributions.ts';

/** Credit line of a configured canopy raster: names it, with the licence the configuration gives (else "see provider"). */
export function canopyAttribution(id: string, name: string, override?: Partial<Attribution>): Attribution {
  return { id, name, text: `Canopy height: ${name}`, license: 'see provider', url: '', required: true, ...override };
}
