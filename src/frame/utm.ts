/** UTM zone facts for a WGS84 position, including the Norway and Svalbard exceptions. */
export interface UtmZone {
  zone: number;
  hemisphere: 'north' | 'south';
  /** Latitude band letter (C–X). */
  letter: string;
  /** `EPSG:326zz` (north) or `EPSG:327zz` (south). */
  epsg: string;
  /** Zone number plus hemisphere letter, e.g. `32N`. */
  zoneString: string;
  proj4: string;
}

const BANDS = 'CDEFGHJKLMNPQRSTUVWXX';

export function utmZoneFor(lat: number, lon: number): UtmZone {
  const lonNorm = ((((lon + 180) % 360) + 360) % 360) - 180;
  let zone = Math.min(60, Math.floor((lonNorm + 180) / 6) + 1);
  if (lat >= 56 && lat < 64 && lonNorm >= 3 && lonNorm < 12) zone = 32;
  if (lat >= 72 && lat < 84) {
    if (lonNorm >= 0 && lonNorm < 9) zone = 31;
    else if (lonNorm >= 9 && lonNorm < 21) zone = 33;
    else if (lonNorm >= 21 && lonNorm < 33) zone = 35;
    else if (lonNorm >= 33 && lonNorm < 42) zone = 37;
  }
  const hemisphere = lat >= 0 ? 'north' : 'south';
  const clampedLat = Math.max(-80, Math.min(84, lat));
  const letter = BANDS[Math.min(BANDS.length - 1, Math.max(0, Math.floor((clampedLat + 80) / 8)))];
  const epsg = `EPSG:${hemisphere === 'north' ? 32600 + zone : 32700 + zone}`;
  return {
    zone,
    hemisphere,
    letter,
    epsg,
    zoneString: `${zone}${hemisphere === 'north' ? 'N' : 'S'}`,
    proj4: `+proj=utm +zone=${zone}${hemisphere === 'south' ? ' +south' : ''} +datum=WGS84 +units=m +no_defs`,
  };
}
