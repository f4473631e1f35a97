import { MeshBuilder } from '../mesh-builder.ts';
import type { GroundSampler } from '../terrain/ground-sampler.ts';
import type { IndexedMesh } from '../types.ts';
import type { SweepPiece } from './path.ts';

export interface SweepSize {
  halfWidth: number;
  height: number;
}

const FLAT = () => 0;

/**
 * One piece as a closed solid: the profile (profiles.ts) placed at every station and joined
 * station to station, with a fan cap at each end of an open piece. The base follows the ground:
 * each bottom point stands at the ground under it; the rest of a cross-section is level, `height`
 * above the higher of its two edges, so the barrier is never lower than tagged and never hangs over
 * a dip (stations are placed where the line crosses the terrain grid, path.ts).
 */
export function sweepPiece(piece: SweepPiece, profile: readonly (readonly [number, number])[], size: SweepSize, ground?: GroundSampler): IndexedMesh {
  const g = ground ?? FLAT;
  const b = new MeshBuilder();
  const m = profile.length;
  const rows: number[][] = [];
  for (const st of piece.stations) {
    const ox = st.lx * size.halfWidth,
      oy = st.ly * size.halfWidth;
    const top = Math.max(g(st.x + ox, st.y + oy), g(st.x - ox, st.y - oy));
    rows.push(
      profile.map(([u, v]) => {
        const x = st.x + u * ox,
          y = st.y + u * oy;
        return b.vertex(x, y, v === 0 ? g(x, y) : top + v * size.height);
      }),
    );
  }
  const last = piece.ring ? rows.length : rows.length - 1;
  for (let k = 0; k < last; k++) {
    const r0 = rows[k],
      r1 = rows[(k + 1) % rows.length];
    for (let j = 0; j < m; j++) {
      const i = (j + 1) % m;
      b.quad(r0[i], r0[j], r1[j], r1[i]);
    }
  }
  if (!piece.ring) {
    const first = rows[0],
      end = rows[rows.length - 1];
    for (let j = 1; j + 1 < m; j++) {
      b.triangle(first[0], first[j], first[j + 1]);
      b.triangle(end[0], end[j + 1], end[j]);
    }
  }
  return b.build();
}
