import type { MeshBuilder } from '../../mesh-builder.ts';
import type { IndexedMesh } from '../../types.ts';
import { NOMINAL_HEIGHT } from '../catalogue.ts';
import { beam, blob, box, frustum, model, polygon } from './solids.ts';

/**
 * Low-poly models of monuments and artworks at their nominal size (catalogue.ts NOMINAL_HEIGHT:
 * the model's top is that height), standing at the origin on z = 0, front facing +x, z up, every
 * part a closed outward solid (overlapping where parts meet, never sharing a face): a memorial
 * obelisk on a stepped base, standing figures on plinths (a small one near life size, a big one
 * on a tall pedestal with a raised arm) and an abstract ring on a low plinth for other artworks.
 */
export type MonumentType = 'memorial' | 'statueSmall' | 'statueBig' | 'sculpture';

/** Every monument type, for tests and galleries. */
export const MONUMENT_TYPES: readonly MonumentType[] = ['memorial', 'statueSmall', 'statueBig', 'sculpture'];

/** The model of a monument type at its nominal size. */
export function monumentModel(type: MonumentType): IndexedMesh {
  return model((b) => {
    const h = NOMINAL_HEIGHT[type];
    switch (type) {
      case 'memorial': // a 3 m obelisk-like stele on two steps
        box(b, -0.3 * h, -0.3 * h, 0, 0.3 * h, 0.3 * h, 0.09 * h);
        box(b, -0.22 * h, -0.22 * h, 0.08 * h, 0.22 * h, 0.22 * h, 0.17 * h);
        frustum(b, 0, 0, 0.16 * h, 0.88 * h, 0.2 * h, 0.14 * h, 4, Math.PI / 4);
        frustum(b, 0, 0, 0.87 * h, h, 0.138 * h, 0, 4, Math.PI / 4);
        break;
      case 'statueSmall': // a 1.45 m figure on a 0.55 m plinth
        box(b, -0.22 * h, -0.22 * h, 0, 0.22 * h, 0.22 * h, 0.28 * h);
        figure(b, 0.275 * h, h, false);
        break;
      case 'statueBig': // a 3.8 m figure, one arm raised, on a 2.2 m pedestal of two stages
        box(b, -0.27 * h, -0.27 * h, 0, 0.27 * h, 0.27 * h, 0.07 * h);
        box(b, -0.19 * h, -0.19 * h, 0.065 * h, 0.19 * h, 0.19 * h, 0.37 * h);
        figure(b, 0.365 * h, h, true);
        break;
      case 'sculpture': // an open ring 2.6 m across on a low plinth
        box(b, -0.25 * h, -0.25 * h, 0, 0.25 * h, 0.25 * h, 0.13 * h);
        ring(b, 0.12 * h, h, 0.11 * h);
        break;
    }
  });
}

/**
 * A standing figure from `z0` to `top`, facing +x: two legs, a torso wider than deep, two arms
 * (the right one, −y, raised forward when `raised`), and the head reaching `top`.
 */
function figure(b: MeshBuilder, z0: number, top: number, raised: boolean): void {
  const f = top - z0;
  const hip = z0 + 0.48 * f,
    shoulder = z0 + 0.82 * f;
  for (const side of [-1, 1]) frustum(b, 0, side * 0.055 * f, z0, hip + 0.03 * f, 0.04 * f, 0.065 * f, 5);
  beam(b, [0, 0, hip - 0.02 * f], [0, 0, shoulder + 0.02 * f], torso(0.07 * f, 0.12 * f), torso(0.065 * f, 0.14 * f));
  const arm = polygon(0.035 * f, 4);
  beam(b, [0, 0.15 * f, shoulder], [0.02 * f, 0.175 * f, z0 + 0.47 * f], arm);
  if (raised) beam(b, [0, -0.15 * f, shoulder], [0.16 * f, -0.2 * f, z0 + 0.96 * f], arm);
  else beam(b, [0, -0.15 * f, shoulder], [0.02 * f, -0.175 * f, z0 + 0.47 * f], arm);
  const head = 0.075 * f;
  blob(b, 0.01 * f, 0, top - head, 0.06 * f, head);
}

/** A torso's section: a hexagon `depth` along the figure's front (x) and `width` across (y). */
function torso(depth: number, width: number): number[][] {
  return polygon(1, 6, 0).map(([u, v]) => [u * depth, v * width]);
}

/**
 * A ring in the y–z plane (facing the front) of square section `w`, its outer top at `top` and
 * its bottom sunk into whatever it stands on at `z0`: eight straight pieces, each a little longer
 * than its side of the octagon so the corners close.
 */
function ring(b: MeshBuilder, z0: number, top: number, w: number): void {
  const sides = 8,
    half = Math.PI / sides;
  // past the mitre (w/2·tan(half)), so neighbours overlap instead of meeting corner to corner;
  // the top piece's neighbours then reach `rise` above its outer face
  const stretch = 0.55 * w * Math.tan(half);
  const rise = Math.sin(2 * half) * (stretch + w / 2) - w / 2;
  // the octagon's flat top with its outer face `rise` below `top` (centre-line apothem + w/2 above
  // the centre); the bottom piece a little below `z0`
  const apothem = (top - rise - z0) / 2 - w / 2 + 0.02 * w;
  const r = apothem / Math.cos(half),
    cz = top - rise - apothem - w / 2;
  const corner = (k: number) => {
    const a = Math.PI / 2 + half + 2 * half * k;
    return [Math.cos(a) * r, Math.sin(a) * r];
  };
  for (let k = 0; k < sides; k++) {
    const [y0, z0k] = corner(k),
      [y1, z1k] = corner(k + 1);
    const len = Math.hypot(y1 - y0, z1k - z0k),
      ey = ((y1 - y0) / len) * stretch,
      ez = ((z1k - z0k) / len) * stretch;
    beam(b, [0, y0 - ey, cz + z0k - ez], [0, y1 + ey, cz + z1k + ez], polygon((w / 2) * Math.SQRT2, 4, Math.PI / 4));
  }
}
