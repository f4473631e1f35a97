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

/**
 * A leaning frustum with level caps: the bottom polygon around `p0` (radius `r0`), the top around
 * `p1` (radius `r1`), so a leaning leg stands flat on the ground. Same corners and faces as frustum.
 */
export function column(b: MeshBuilder, p0: readonly number[], p1: readonly number[], r0: number, r1: number, sides: number, phase = 0): void {
  const bottom: number[] = [],
    top: number[] = [];
  for (let k = 0; k < sides; k++) {
    const a = phase + (2 * Math.PI * k) / sides;
    bottom.push(b.vertex(p0[0] + r0 * Math.cos(a), p0[1] + r0 * Math.sin(a), p0[2]));
    top.push(b.vertex(p1[0] + r1 * Math.cos(a), p1[1] + r1 * Math.sin(a), p1[2]));
  }
  for (let k = 0; k < sides; k++) {
    const j = (k + 1) % sides;
    b.triangle(bottom[k], bottom[j], top[j]);
    b.triangle(bottom[k], top[j], top[k]);
  }
  for (let k = 1; k + 1 < sides; k++) b.triangle(bottom[0], bottom[k + 1], bottom[k]);
  for (let k = 1; k + 1 < sides; k++) b.triangle(top[0], top[k], top[k + 1]);
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

/**
 * A straight member from `p0` to `p1` (any direction) whose cross-section is the convex polygon
 * `section0` at `p0` and `section1` at `p1` (the same number of corners, counter-clockwise in the
 * member's own (u, v) plane; u is horizontal unless the member is vertical, then it is +x):
 * lattice legs, braces, jibs, blades. Caps are fans from the first corner.
 */
export function beam(b: MeshBuilder, p0: readonly number[], p1: readonly number[], section0: readonly (readonly number[])[], section1 = section0): void {
  const d = [p1[0] - p0[0], p1[1] - p0[1], p1[2] - p0[2]];
  const len = Math.hypot(d[0], d[1], d[2]);
  const [dx, dy, dz] = d.map((c) => c / len);
  // u ⟂ d, horizontal when d is not vertical; v = d × u, so that u × v = d (caps face out)
  const flat = Math.hypot(dx, dy);
  const u = flat > 1e-9 ? [-dy / flat, dx / flat, 0] : [1, 0, 0];
  const v = [dy * u[2] - dz * u[1], dz * u[0] - dx * u[2], dx * u[1] - dy * u[0]];
  const ring = (p: readonly number[], sec: readonly (readonly number[])[]) =>
    sec.map(([a, c]) => b.vertex(p[0] + a * u[0] + c * v[0], p[1] + a * u[1] + c * v[1], p[2] + a * u[2] + c * v[2]));
  const bottom = ring(p0, section0),
    top = ring(p1, section1);
  const n = bottom.length;
  for (let k = 0; k < n; k++) {
    const j = (k + 1) % n;
    b.triangle(bottom[k], bottom[j], top[j]);
    b.triangle(bottom[k], top[j], top[k]);
  }
  for (let k = 1; k + 1 < n; k++) b.triangle(bottom[0], bottom[k + 1], bottom[k]);
  for (let k = 1; k + 1 < n; k++) b.triangle(top[0], top[k], top[k + 1]);
}

/** A regular `sides`-gon of circumradius `r`, counter-clockwise, a corner at angle `phase`: a beam's section. */
export function polygon(r: number, sides: number, phase = Math.PI / sides): number[][] {
  return Array.from({ length: sides }, (_, k) => {
    const a = phase + (2 * Math.PI * k) / sides;
    return [r * Math.cos(a), r * Math.sin(a)];
  });
}

/** A thin member of square section `width` across from `p0` to `p1` (12 faces; 8 with `sides` 3). */
export function strut(b: MeshBuilder, p0: readonly number[], p1: readonly number[], width: number, sides = 4): void {
  beam(b, p0, p1, polygon(width / Math.SQRT2, sides, sides === 4 ? Math.PI / 4 : Math.PI / 2));
}

/** Builds a model from solids. */
export function model(build: (b: MeshBuilder) => void): IndexedMesh {
  const b = new MeshBuilder();
  build(b);
  return b.build();
}
