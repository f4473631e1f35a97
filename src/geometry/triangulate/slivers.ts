/**
 * Slivers: triangles of (almost) no area, where a corner lies on the opposite side. earcut leaves
 * them where a diagonal runs through a third vertex, and lattice nodes or Clipper's grid make more.
 * A mesh check counts them as degenerate, and dropping one opens the mesh; flipping the sliver's
 * longest side with the neighbour across it removes it and keeps the triangulation watertight.
 */

/** Twice the signed area of triangle (a, b, c) of `coords` (positive when counter-clockwise). */
export function triangleArea2(coords: ArrayLike<number>, a: number, b: number, c: number): number {
  return (coords[2 * b] - coords[2 * a]) * (coords[2 * c + 1] - coords[2 * a + 1]) - (coords[2 * b + 1] - coords[2 * a + 1]) * (coords[2 * c] - coords[2 * a]);
}

/**
 * Flips away, in place, the counter-clockwise triangles of `tris` whose doubled area is under
 * `minArea2`: the sliver's longest side u→v is flipped with the triangle across it (v→u), when both
 * new triangles have at least that doubled area; up to three sweeps, fewer once one flips nothing.
 * Slivers with no such neighbour stay.
 */
export function flipSlivers(coords: ArrayLike<number>, tris: number[], minArea2: number): void {
  const count = tris.length / 3;
  const vertexCount = coords.length / 2;
  const owner = new Map<number, number>();
  const key = (u: number, v: number) => u * vertexCount + v;
  const register = (t: number, on: boolean) => {
    for (let k = 0; k < 3; k++) {
      const e = key(tris[3 * t + k], tris[3 * t + ((k + 1) % 3)]);
      if (on) owner.set(e, t);
      else if (owner.get(e) === t) owner.delete(e);
    }
  };
  for (let t = 0; t < count; t++) register(t, true);
  for (let pass = 0; pass < 3; pass++) {
    let flipped = false;
    for (let t = 0; t < count; t++) {
      if (triangleArea2(coords, tris[3 * t], tris[3 * t + 1], tris[3 * t + 2]) >= minArea2) continue;
      // the longest side u→v, with w the corner lying (almost) on it
      let best = 0,
        bestLength = -1;
      for (let k = 0; k < 3; k++) {
        const u = tris[3 * t + k],
          v = tris[3 * t + ((k + 1) % 3)];
        const len = (coords[2 * v] - coords[2 * u]) ** 2 + (coords[2 * v + 1] - coords[2 * u + 1]) ** 2;
        if (len > bestLength) {
          bestLength = len;
          best = k;
        }
      }
      const u = tris[3 * t + best],
        v = tris[3 * t + ((best + 1) % 3)],
        w = tris[3 * t + ((best + 2) % 3)];
      const n = owner.get(key(v, u));
      if (n === undefined) continue;
      let d = -1;
      for (let k = 0; k < 3; k++) {
        const x = tris[3 * n + k];
        if (x !== u && x !== v) d = x;
      }
      if (d < 0 || triangleArea2(coords, w, u, d) < minArea2 || triangleArea2(coords, w, d, v) < minArea2) continue;
      register(t, false);
      register(n, false);
      tris[3 * t] = w;
      tris[3 * t + 1] = u;
      tris[3 * t + 2] = d;
      tris[3 * n] = w;
      tris[3 * n + 1] = d;
      tris[3 * n + 2] = v;
      register(t, true);
      register(n, true);
      flipped = true;
    }
    if (!flipped) break;
  }
}

/**
 * Removes, in place, the triangles under `minArea` (in plan): orients every triangle
 * counter-clockwise, flips slivers away (flipSlivers), and drops those that no flip could save
 * (a hole of less than `minArea`).
 */
export function removeSlivers(coords: ArrayLike<number>, tris: number[], minArea: number): void {
  const min2 = 2 * minArea;
  const count = tris.length / 3;
  let slivers = 0;
  for (let t = 0; t < count; t++) {
    const a2 = triangleArea2(coords, tris[3 * t], tris[3 * t + 1], tris[3 * t + 2]);
    if (a2 < 0) {
      const b = tris[3 * t + 1];
      tris[3 * t + 1] = tris[3 * t + 2];
      tris[3 * t + 2] = b;
    }
    if (Math.abs(a2) < min2) slivers++;
  }
  if (slivers === 0) return;
  flipSlivers(coords, tris, min2);
  let w = 0;
  for (let t = 0; t < count; t++) {
    if (triangleArea2(coords, tris[3 * t], tris[3 * t + 1], tris[3 * t + 2]) < min2) continue;
    tris[w++] = tris[3 * t];
    tris[w++] = tris[3 * t + 1];
    tris[w++] = tris[3 * t + 2];
  }
  tris.length = w;
}
