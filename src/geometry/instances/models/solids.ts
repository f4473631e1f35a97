import { MeshBuilder } from '../../mesh-builder.ts';
import type { IndexedMesh } from '../../types.ts';

/**
 * Closed low-poly solids the street-object models are made of (z up, metres, counter-clockwise
 * outward faces). Each is a closed 2-manifold on its own; a model is several of them side by side
 * (a trunk and its crown), which keeps every model closed without boolean unions.
 */

/**
 * A prism or frustum around the z axis at (cx, cy): `sides` corners, radius `r0` at z0 and `r1`
 * at z1 (r1 = 0: a cone with its apex at z1). Caps are fans from their first corner.
 */
export function frustum(b: MeshBuilder, cx: number, cy: number, z0: number, z1: number, r0: number, r1: number, sides: number, phase = 0): void {
  const bottom: number[] = [],
    top: number[] = [];
  for (let k = 0; k < sides; k++) {
    const a = phase + (2 * Math.PI * k) / sides;
    bottom.push(b.vertex(cx + r0 * Math.cos(a), cy + r0 * Math.sin(a), z0));
    if (r1 > 0) top.push(b.vertex(cx + r1 * Math.cos(a), cy + r1 * Math.sin(a), z1));
  }
  const apex = r1 > 0 ? -1 : b.vertex(cx, cy, z1);
  for (let k = 0; k < sides; k++) {
    const j = (k + 1) % sides;
    if (apex >= 0) b.triangle(bottom[k], bottom[j], apex);
    else {
      b.triangle(bottom[k], bottom[j], top[j]);
      b.triangle(bottom[k], top[j], top[k]);
    }
  }
  for (let k = 1; k + 1 < sides; k++) b.triangle(bottom[0], bottom[k + 1], bottom[k]); // facing down
  if (apex < 0) for (let k = 1; k + 1 < sides; k++) b.triangle(top[0], top[k], top[k + 1]);
}

/** The 12 corners of a unit icosahedron and its 20 outward faces. */
const T = (1 + Math.sqrt(5)) / 2;
const ICO_CORNERS = [
  [-1, T, 0],
  [1, T, 0],
  [-1, -T, 0],
  [1, -T, 0],
  [0, -1, T],
  [0, 1, T],
  [0, -1, -T],
  [0, 1, -T],
  [T, 0, -1],
  [T, 0, 1],
  [-T, 0, -1],
  [-T, 0, 1],
].map(([x, y, z]) => {
  const l = Math.hypot(x, y, z);
  return [x / l, y / l, z / l];
});
const ICO_FACES = [
  [0, 11, 5],
  [0, 5, 1],
  [0, 1, 7],
  [0, 7, 10],
  [0, 10, 11],
  [1, 5, 9],
  [5, 11, 4],
  [11, 10, 2],
  [10, 7, 6],
  [7, 1, 8],
  [3, 9, 4],
  [3, 4, 2],
  [3, 2, 6],
  [3, 6, 8],
  [3, 8, 9],
  [4, 9, 5],
  [2, 4, 11],
  [6, 2, 10],
  [8, 6, 7],
  [9, 8, 1],
];

/** How high the unit icosahedron reaches (its corners' largest z; sideways they reach 1). */
const ICO_TOP = Math.max(...ICO_CORNERS.map((c) => c[2]));

/**
 * An ellipsoid as a stretched icosahedron (20 faces): centre (cx, cy, cz), reaching `r` sideways
 * and exactly `rz` up and down.
 */
export function blob(b: MeshBuilder, cx: number, cy: number, cz: number, r: number, rz: number): void {
  const ids = ICO_CORNERS.map(([x, y, z]) => b.vertex(cx + r * x, cy + r * y, cz + (rz / ICO_TOP) * z));
  for (const [i, j, k] of ICO_FACES) b.triangle(ids[i], ids[j], ids[k]);
}

/** An axis-aligned box from (x0, y0, z0) to (x1, y1, z1): 12 faces. */
export function box(b: MeshBuilder, x0: number, y0: number, z0: number, x1: number, y1: number, z1: number): void {
  const v = (x: number, y: number, z: number) => b.vertex(x, y, z);
  const c = [v(x0, y0, z0), v(x1, y0, z0), v(x1, y1, z0), v(x0, y1, z0), v(x0, y0, z1), v(x1, y0, z1), v(x1, y1, z1), v(x0, y1, z1)];
  const quads = [
    [0, 3, 2, 1], // bottom
    [4, 5, 6, 7], // top
    [0, 1, 5, 4],
    [1, 2, 6, 5],
    [2, 3, 7, 6],
    [3, 0, 4, 7],
  ];
  for (const [a, p, q, r] of quads) {
    b.triangle(c[a], c[p], c[q]);
    b.triangle(c[a], c[q], c[r]);
  }
}

/** Builds a model from solids. */
export function model(build: (b: MeshBuilder) => void): IndexedMesh {
  const b = new MeshBuilder();
  build(b);
  return b.build();
}
