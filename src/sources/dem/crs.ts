import proj4 from 'proj4';

/**
 * CRS definitions for rasters. proj4 itself only knows a handful of EPSG codes (4326, 4269, 3857)
 * and no EPSG database is installed, so common raster CRSs are listed here; UTM zones are generated.
 * Definitions were checked with `gdalsrsinfo -o proj4 EPSG:<code>` (GDAL 3.6); for 27700 the
 * classic 7-parameter shift is kept because proj4js cannot use the OSTN15 grid GDAL now prefers.
 * Anything else can be configured as a proj4 string.
 */
const TABLE: Record<number, string> = {
  4326: '+proj=longlat +datum=WGS84 +no_defs',
  4258: '+proj=longlat +ellps=GRS80 +towgs84=0,0,0,0,0,0,0 +no_defs',
  4269: '+proj=longlat +datum=NAD83 +no_defs',
  3857: '+proj=merc +a=6378137 +b=6378137 +lat_ts=0 +lon_0=0 +x_0=0 +y_0=0 +k=1 +units=m +nadgrids=@null +wktext +no_defs',
  900913: '+proj=merc +a=6378137 +b=6378137 +lat_ts=0 +lon_0=0 +x_0=0 +y_0=0 +k=1 +units=m +nadgrids=@null +wktext +no_defs',
  3395: '+proj=merc +lon_0=0 +k=1 +x_0=0 +y_0=0 +datum=WGS84 +units=m +no_defs',
  2056: '+proj=somerc +lat_0=46.9524055555556 +lon_0=7.43958333333333 +k_0=1 +x_0=2600000 +y_0=1200000 +ellps=bessel +towgs84=674.374,15.056,405.346,0,0,0,0 +units=m +no_defs',
  2154: '+proj=lcc +lat_0=46.5 +lon_0=3 +lat_1=49 +lat_2=44 +x_0=700000 +y_0=6600000 +ellps=GRS80 +towgs84=0,0,0,0,0,0,0 +units=m +no_defs',
  3035: '+proj=laea +lat_0=52 +lon_0=10 +x_0=4321000 +y_0=3210000 +ellps=GRS80 +towgs84=0,0,0,0,0,0,0 +units=m +no_defs',
  27700: '+proj=tmerc +lat_0=49 +lon_0=-2 +k=0.9996012717 +x_0=400000 +y_0=-100000 +ellps=airy +towgs84=446.448,-125.157,542.06,0.15,0.247,0.842,-20.489 +units=m +no_defs',
  31287: '+proj=lcc +lat_0=47.5 +lon_0=13.3333333333333 +lat_1=49 +lat_2=46 +x_0=400000 +y_0=400000 +ellps=bessel +towgs84=577.326,90.129,463.919,5.137,1.474,5.297,2.4232 +units=m +no_defs',
};

/** proj4 definition for an EPSG code, or undefined when neither the table nor a UTM rule knows it. */
export function epsgDefinition(code: number): string | undefined {
  if (TABLE[code]) return TABLE[code];
  // WGS84 UTM north 32601–32660 and south 32701–32760.
  if (code >= 32601 && code <= 32660) return `+proj=utm +zone=${code - 32600} +datum=WGS84 +units=m +no_defs`;
  if (code >= 32701 && code <= 32760) return `+proj=utm +zone=${code - 32700} +south +datum=WGS84 +units=m +no_defs`;
  // ETRS89 UTM 25828–25838 and NAD83 UTM 26901–26923.
  if (code >= 25828 && code <= 25838) return `+proj=utm +zone=${code - 25800} +ellps=GRS80 +towgs84=0,0,0,0,0,0,0 +units=m +no_defs`;
  if (code >= 26901 && code <= 26923) return `+proj=utm +zone=${code - 26900} +datum=NAD83 +units=m +no_defs`;
  return undefined;
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
