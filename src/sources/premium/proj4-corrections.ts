/**
 * proj4 definitions the EPSG registry package (epsg-index) gets wrong or leaves unusable here,
 * and what the import uses instead:
 *
 * - EPSG:28992 (Amersfoort / RD New, the Dutch grid of 3D BAG): its towgs84 rotations are in
 *   microradians where proj4 expects arcseconds, which puts buildings ~165 m off. Replaced by the
 *   Helmert PROJ uses (Amersfoort to WGS 84 (4); proj4's towgs84 is position-vector, so PROJ's
 *   coordinate-frame rotations change sign). Checked against cs2cs to 1 mm in the tests.
 * - DHDN / 3-degree Gauss-Kruger (EPSG:31466–31469, 5676–5680) and OSGB36 / British National
 *   Grid (EPSG:27700) name a datum grid (BETA2007.gsb, OSTN15) that proj4 cannot load here, so
 *   every conversion would fail. Replaced by the EPSG Helmert transformations (DHDN to WGS 84 (2),
 *   ~3 m; OSGB36 to WGS 84 (6), ~2 m): good enough to place a building, not to survey it.
 */
const RD_NEW =
  '+proj=sterea +lat_0=52.1561605555556 +lon_0=5.38763888888889 +k=0.9999079 +x_0=155000 +y_0=463000 +ellps=bessel ' +
  '+towgs84=565.4171,50.3319,465.5524,-0.398957388243134,0.343987817378283,-1.87740163998045,4.0725 +units=m +no_defs';
const DHDN_HELMERT = '+towgs84=598.1,73.7,418.2,0.202,0.045,-2.455,6.7';

function gaussKruger(zone: number): string {
  return `+proj=tmerc +lat_0=0 +lon_0=${3 * zone} +k=1 +x_0=${zone * 1_000_000 + 500_000} +y_0=0 +ellps=bessel ${DHDN_HELMERT} +units=m +no_defs`;
}

export const PROJ4_CORRECTIONS: ReadonlyMap<number, string> = new Map<number, string>([
  [28992, RD_NEW],
  ...[2, 3, 4, 5].map((zone): [number, string] => [31464 + zone, gaussKruger(zone)]),
  ...[2, 3, 4, 5].map((zone): [number, string] => [5674 + zone, gaussKruger(zone)]),
  [5680, gaussKruger(1)],
  [
    27700,
    '+proj=tmerc +lat_0=49 +lon_0=-2 +k=0.9996012717 +x_0=400000 +y_0=-100000 +ellps=airy +towgs84=446.448,-125.157,542.06,0.15,0.247,0.842,-20.489 +units=m +no_defs',
  ],
]);
