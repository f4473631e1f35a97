/** The last step of the wavefront skeleton (wavefront.ts): nodes put back where their sides' lines say. */

/** What polishing needs of a footprint side: the ring vertex it starts at, a point on its line and its inward unit normal. */
export interface SideLine {
  p: number;
  ax: number;
  ay: number;
  nx: number;
  ny: number;
}

/**
 * Recomputes every node from its faces' side lines: the point (x, y) and time t with
 * n·(p − a) = t for each side, by least squares. The simulation gets the topology right but
 * drifts where sides are nearly parallel (a ridge taken as level that rises by a millimetre);
 * this puts each node back where the sides say. Ill-conditioned or inconsistent nodes stay.
 */
export function polishNodes(faces: number[][], sides: readonly SideLine[], n0: number, nodeX: number[], nodeY: number[], nodeT: number[], scale: number): void {
  const sidesOf: SideLine[][] = nodeX.map(() => []);
  faces.forEach((face, p) => {
    const side = sides.find((s) => s.p === p)!;
    for (const v of face) if (v >= n0 && !sidesOf[v - n0].includes(side)) sidesOf[v - n0].push(side);
  });
  for (let k = 0; k < nodeX.length; k++) {
    const list = sidesOf[k];
    if (list.length < 3) continue;
    // Normal equations of rows [nx, ny, -1]·[x, y, t] = n·a.
    let a11 = 0,
      a12 = 0,
      a13 = 0,
      a22 = 0,
      a23 = 0,
      a33 = 0,
      b1 = 0,
      b2 = 0,
      b3 = 0;
    for (const s of list) {
      const c = s.nx * s.ax + s.ny * s.ay;
      a11 += s.nx * s.nx;
      a12 += s.nx * s.ny;
      a13 -= s.nx;
      a22 += s.ny * s.ny;
      a23 -= s.ny;
      a33 += 1;
      b1 += s.nx * c;
      b2 += s.ny * c;
      b3 -= c;
    }
    const det = a11 * (a22 * a33 - a23 * a23) - a12 * (a12 * a33 - a23 * a13) + a13 * (a12 * a23 - a22 * a13);
    if (!(Math.abs(det) > 1e-10)) continue;
    const x = (b1 * (a22 * a33 - a23 * a23) - a12 * (b2 * a33 - a23 * b3) + a13 * (b2 * a23 - a22 * b3)) / det;
    const y = (a11 * (b2 * a33 - a23 * b3) - b1 * (a12 * a33 - a23 * a13) + a13 * (a12 * b3 - b2 * a13)) / det;
    const t = (a11 * (a22 * b3 - b2 * a23) - a12 * (a12 * b3 - b2 * a13) + b1 * (a12 * a23 - a22 * a13)) / det;
    const residual = Math.max(...list.map((s) => Math.abs(s.nx * (x - s.ax) + s.ny * (y - s.ay) - t)));
    const moved = Math.hypot(x - nodeX[k], y - nodeY[k], t - nodeT[k]);
    if (residual < 1e-7 * Math.max(1, scale) && moved < 0.05 + 0.01 * nodeT[k] && t > 0) {
      nodeX[k] = x;
      nodeY[k] = y;
      nodeT[k] = t;
    }
  }
}
