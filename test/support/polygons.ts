/** Request polygons for tests and scripts, as [lat, lon] rings (the request's order). */

/** A closed ring of [lat, lon] around a centre, roughly `side` metres square. */
export function square(lat: number, lon: number, side: number): [number, number][] {
  const dLat = side / 2 / 111320,
    dLon = side / 2 / (111320 * Math.cos((lat * Math.PI) / 180));
  return [
    [lat - dLat, lon - dLon],
    [lat - dLat, lon + dLon],
    [lat + dLat, lon + dLon],
    [lat + dLat, lon - dLon],
    [lat - dLat, lon - dLon],
  ];
}

/** Central Monaco (La Condamine / Monaco-Ville). */
export const MONACO_CENTRE = [43.735, 7.419] as const;
