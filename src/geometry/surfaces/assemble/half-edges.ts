/** Half-edges of a flat triangle list (`tris`, three vertex indices a triangle), as the draping steps walk them. */

/** Half-edge e = 3t + k runs from corner k to corner k + 1 of triangle t; a side u→v is keyed u · STRIDE + v. */
export const STRIDE = 2 ** 26;

/** Opposite half-edge of each half-edge, −1 on the boundary. */
export function twins(tris: number[]): number[] {
  const he = new Array<number>(tris.length).fill(-1);
  const open = new Map<number, number>();
  for (let e = 0; e < tris.length; e++) {
    const u = tris[e],
      v = tris[next(e)];
    const back = open.get(v * STRIDE + u);
    if (back !== undefined) {
      he[e] = back;
      he[back] = e;
      open.delete(v * STRIDE + u);
    } else open.set(u * STRIDE + v, e);
  }
  return he;
}

/** The half-edge after e in its triangle. */
export const next = (e: number) => (e % 3 === 2 ? e - 2 : e + 1);
