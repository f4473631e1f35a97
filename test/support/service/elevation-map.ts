/** Reading DESIGN.md elevation maps as a client does (first row north, first column west). */

export interface Entry {
  elevationMap: number[];
  info: {
    terrainSize: number;
    segmentsCount: number;
    moveVector: { x: number; y: number };
    width: number;
    height: number;
    segmentsWidth: number;
    segmentsHeight: number;
  };
}

/** Local (x, y) of grid vertex (row, col) of an elevation map. */
export function gridPoint(e: Entry, row: number, col: number): [number, number] {
  const { terrainSize: s, segmentsCount: n, moveVector: m } = e.info;
  return [m.x - s / 2 + (col * s) / n, m.y + s / 2 - (row * s) / n];
}

/** Height of an elevation map at local (x, y) on the surface a client draws of it (docs/terrain.md: two triangles a cell). */
export function mapHeight(e: Entry, x: number, y: number): number {
  const { terrainSize: s, segmentsCount: n, moveVector: m } = e.info;
  const fx = ((x - (m.x - s / 2)) / s) * n,
    fy = ((m.y + s / 2 - y) / s) * n;
  const c = Math.min(n - 1, Math.max(0, Math.floor(fx))),
    r = Math.min(n - 1, Math.max(0, Math.floor(fy)));
  const u = fx - c,
    v = 1 - (fy - r), // north of the cell's south edge
    at = (cc: number, rr: number) => e.elevationMap[rr * (n + 1) + cc];
  const nw = at(c, r),
    ne = at(c + 1, r),
    sw = at(c, r + 1),
    se = at(c + 1, r + 1);
  // the two triangles of the cell, split along its SW–NE diagonal (three.js PlaneGeometry)
  return u >= v ? sw + u * (se - sw) + v * (ne - se) : sw + v * (nw - sw) + u * (ne - nw);
}

/** Whether local (x, y) lies on the square of an elevation map (tolerance in metres). */
export function onMap(e: Entry, x: number, y: number, tolerance = 1e-3): boolean {
  const half = e.info.terrainSize / 2 + tolerance,
    m = e.info.moveVector;
  return Math.abs(x - m.x) <= half && Math.abs(y - m.y) <= half;
}

/**
 * Bilinear reader of an SRTM-style .hgt buffer (big-endian int16, size² samples, pixel-is-point,
 * first row north) whose south-west corner is (lat0, lon0): the independent DEM reference.
 */
export function hgtReader(buffer: Buffer, lat0: number, lon0: number): (lon: number, lat: number) => number {
  const size = Math.round(Math.sqrt(buffer.length / 2)),
    steps = size - 1;
  return (lon, lat) => {
    const fx = (lon - lon0) * steps,
      fy = (lat0 + 1 - lat) * steps;
    const c = Math.min(steps - 1, Math.floor(fx)),
      r = Math.min(steps - 1, Math.floor(fy)),
      u = fx - c,
      v = fy - r;
    const at = (cc: number, rr: number) => buffer.readInt16BE(2 * (rr * size + cc));
    return at(c, r) * (1 - u) * (1 - v) + at(c + 1, r) * u * (1 - v) + at(c, r + 1) * (1 - u) * v + at(c + 1, r + 1) * u * v;
  };
}
