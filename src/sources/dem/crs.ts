import proj4 from 'proj4';
import { lookupEpsg } from '../../frame/epsg.ts';

/**
 * CRS definitions for rasters come from the EPSG registry (epsg-index, via src/frame/epsg.ts);
 * anything it lacks can be configured as a proj4 string.
 */

/** proj4 definition for an EPSG code, or undefined when the registry does not know it. */
export function epsgDefinition(code: number): string | undefined {
  return lookupEpsg(code)?.proj4;
}

/**
 * A CRS given as `EPSG:<code>`, a bare code, or a proj4 string, turned into a proj4 definition.
 * Throws with a message naming the way out when the code is unknown.
 */
export function resolveCrs(crs: string | number): string {
  const text = String(crs).trim();
  const match = /^(?:EPSG:)?(\d+)$/i.exec(text);
  if (match) {
    const def = epsgDefinition(Number(match[1]));
    if (!def) throw new Error(`unknown CRS EPSG:${match[1]}; configure the raster's CRS as a proj4 string`);
    return def;
  }
  if (text.startsWith('+')) return text;
  throw new Error(`cannot read CRS "${text}"; use EPSG:<code> or a proj4 string`);
}

/** True for definitions whose coordinates are WGS84 degrees already (no projection needed). */
export function isWgs84LonLat(def: string): boolean {
  return /\+proj=longlat\b/.test(def) && /\+datum=WGS84\b/.test(def);
}

export interface LonLatToCrs {
  /** WGS84 lon/lat to raster CRS coordinates. */
  forward(lon: number, lat: number): [number, number];
  /** Raster CRS coordinates to WGS84 lon/lat. */
  inverse(x: number, y: number): [number, number];
}

/** Converter from WGS84 lon/lat to the given CRS (identity for WGS84 geographic). */
export function lonLatToCrs(def: string): LonLatToCrs {
  if (isWgs84LonLat(def)) return { forward: (lon, lat) => [lon, lat], inverse: (x, y) => [x, y] };
  const converter = proj4('EPSG:4326', def);
  return {
    forward: (lon, lat) => converter.forward([lon, lat]) as [number, number],
    inverse: (x, y) => converter.inverse([x, y]) as [number, number],
  };
}
