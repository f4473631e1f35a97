/**
 * A surface of a city model triangulated in its own best-fit plane, holes kept. Real LoD2 rings are
 * rarely exactly planar; Newell's normal is the plane least disturbed by that, and triangulating
 * the rings projected onto it keeps every ring vertex (so neighbouring surfaces can share edges).
 */
import { triangulateFootprint, triangulateRings } from '../../triangulate/index.ts';

/** Newell's normal of flat x, y, z rings (not normalised; its length is twice the area). */
export function newellNormal(rings: readonly (readonly number[])[]): [number, number, number] {
  let nx = 0,
    ny = 0,
    nz = 0;
  rings.forEach((ring, r) => {
    const n = ring.length / 3;
    let sx = 0,
      sy = 0,
      sz = 0;
    for (let i = 0, j = n - 1; i < n; j = i++) {
      const xi = ring[3 * i],
        yi = ring[3 * i + 1],
        zi = ring[3 * i + 2];
      const xj = ring[3 * j],
        yj = ring[3 * j + 1],
        zj = ring[3 * j + 2];
      sx += (yj - yi) * (zj + zi);
      sy += (zj - zi) * (xj + xi);
      sz += (xj - xi) * (yj + yi);
    }
    // holes turn the other way round in a sound polygon; only the outer ring sets the direction
    if (r === 0) {
      nx += sx;
      ny += sy;
      nz += sz;
    }
  });
  return [nx, ny, nz];
}

/**
 * Triangles of a planar-ish polygon as indices into its points (rings concatenated, outer first),
 * or null when it has no area in its plane. Triangles turn like the outer ring.
 */
export function planeTriangles(rings: readonly (readonly number[])[]): number[] | null {
  const [nx, ny, nz] = newellNormal(rings);
  const len = Math.hypot(nx, ny, nz);
  if (!(len > 1e-9)) return null;
  const n = [nx / len, ny / len, nz / len];
  // u: any unit vector across n; v = n × u, so (u, v, n) is right-handed and the outer ring turns anticlockwise in (u, v)
  const a = Math.abs(n[0]) < 0.9 ? [1, 0, 0] : [0, 1, 0];
  const dot = a[0] * n[0] + a[1] * n[1] + a[2] * n[2];
  const ux0 = a[0] - dot * n[0],
    uy0 = a[1] - dot * n[1],
    uz0 = a[2] - dot * n[2];
  const ul = Math.hypot(ux0, uy0, uz0);
  const u = [ux0 / ul, uy0 / ul, uz0 / ul];
  const v = [n[1] * u[2] - n[2] * u[1], n[2] * u[0] - n[0] * u[2], n[0] * u[1] - n[1] * u[0]];
  const coords: number[] = [];
  const holeStarts: number[] = [];
  for (let r = 0; r < rings.length; r++) {
    const ring = rings[r];
    if (r > 0) holeStarts.push(coords.length / 2);
    for (let i = 0; i < ring.length; i += 3) {
      coords.push(ring[i] * u[0] + ring[i + 1] * u[1] + ring[i + 2] * u[2], ring[i] * v[0] + ring[i + 1] * v[1] + ring[i + 2] * v[2]);
    }
  }
  // every triangle of both triangulators turns anticlockwise in (u, v), i.e. like the outer ring
  const exact = triangulateRings(coords, holeStarts);
  if (exact.ok) return exact.triangles;
  const plain = triangulateFootprint({ outer: coords.slice(0, 2 * (holeStarts[0] ?? coords.length / 2)), holes: holesOf(coords, holeStarts) });
  if (plain.triangles.length > 0) return plain.triangles;
  return exact.triangles.length > 0 ? exact.triangles : null;
}

function holesOf(coords: number[], holeStarts: number[]): number[][] {
  return holeStarts.map((start, k) => coords.slice(2 * start, 2 * (holeStarts[k + 1] ?? coords.length / 2)));
}
