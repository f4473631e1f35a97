import proj4 from 'proj4';

/**
 * The local metric frame of a request (DESIGN.md): a transverse Mercator projection on the WGS84
 * ellipsoid, scale 1, centred on the origin, so x = metres east and y = metres north of it.
 */
export interface LocalFrame {
  /** Origin as [latitude, longitude]. */
  readonly origin: readonly [number, number];
  /** proj4 definition of the frame, usable as a source or target CRS. */
  readonly proj4: string;
  /** lon/lat degrees to local metres (x east, y north). */
  toLocal(lon: number, lat: number): [number, number];
  /** local metres to [lon, lat] degrees. */
  toLonLat(x: number, y: number): [number, number];
}

export function localFrameDefinition(originLat: number, originLon: number): string {
  return `+proj=tmerc +lat_0=${originLat} +lon_0=${originLon} +k=1 +x_0=0 +y_0=0 +ellps=WGS84 +units=m +no_defs`;
}

export function createLocalFrame(originLat: number, originLon: number): LocalFrame {
  const def = localFrameDefinition(originLat, originLon);
  const converter = proj4('EPSG:4326', def);
  return {
    origin: [originLat, originLon],
    proj4: def,
    toLocal: (lon, lat) => converter.forward([lon, lat]) as [number, number],
    toLonLat: (x, y) => converter.inverse([x, y]) as [number, number],
  };
}

/** Projects a flat [lon0, lat0, lon1, lat1, …] list into a new flat local [x0, y0, …] list. */
export function projectFlat(frame: LocalFrame, lonLat: ArrayLike<number>): number[] {
  const out = new Array<number>(lonLat.length);
  for (let i = 0; i < lonLat.length; i += 2) {
    const [x, y] = frame.toLocal(lonLat[i], lonLat[i + 1]);
    out[i] = x;
    out[i + 1] = y;
  }
  return out;
}
