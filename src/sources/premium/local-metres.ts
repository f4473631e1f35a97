/**
 * An equirectangular frame in metres around a point, exact both ways: footprints and coverage are
 * unioned and grown in it, and its inverse brings every surviving corner back to the same lon/lat.
 * Over a building the scale error is far below a millimetre; over a dataset it is a few per cent at
 * most, which only changes a 30 m margin by a metre.
 */
const METRES_PER_DEGREE = 111_319.490_793_273_57; // WGS84 equatorial radius × π / 180

export interface LocalMetres {
  toXY(lon: number, lat: number): [number, number];
  toLonLat(x: number, y: number): [number, number];
}

export function localMetres(lon0: number, lat0: number): LocalMetres {
  const kx = METRES_PER_DEGREE * Math.cos((lat0 * Math.PI) / 180);
  const ky = METRES_PER_DEGREE;
  return {
    toXY: (lon, lat) => [(lon - lon0) * kx, (lat - lat0) * ky],
    toLonLat: (x, y) => [lon0 + x / kx, lat0 + y / ky],
  };
}
