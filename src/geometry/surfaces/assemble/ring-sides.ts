import type { Ring } from '../../types.ts';

/**
 * The sides of a polygon's rings as flat typed arrays, with where each lies along its ring, for
 * the thin-part finder (thin-parts.ts). One scratch set is reused from call to call (grown when
 * a polygon has more sides), so the hot ground assembly allocates nothing here.
 */

/** Side k runs from (x1, y1) to (x2, y2). */
export interface Edges {
  x1: Float64Array;
  y1: Float64Array;
  x2: Float64Array;
  y2: Float64Array;
  /** Distance along its ring from the ring's first vertex to the side's start. */
  arc: Float64Array;
  /** The ring's first side and number of sides. */
  start: Int32Array;
  count: Int32Array;
  /** Perimeter of the side's ring. */
  perimeter: Float64Array;
}

let scratch: Edges = allocate(256);

function allocate(n: number): Edges {
  return {
    x1: new Float64Array(n),
    y1: new Float64Array(n),
    x2: new Float64Array(n),
    y2: new Float64Array(n),
    arc: new Float64Array(n),
    start: new Int32Array(n),
    count: new Int32Array(n),
    perimeter: new Float64Array(n),
  };
}

export function edgesOf(rings: readonly Ring[], n: number): Edges {
  if (scratch.x1.length < n) scratch = allocate(Math.max(n, 2 * scratch.x1.length));
  const e = scratch;
  let k = 0;
  for (const r of rings) {
    const m = r.length / 2,
      first = k;
    let s = 0;
    for (let i = 0; i < m; i++, k++) {
      const j = i + 1 < m ? i + 1 : 0;
      e.x1[k] = r[2 * i];
      e.y1[k] = r[2 * i + 1];
      e.x2[k] = r[2 * j];
      e.y2[k] = r[2 * j + 1];
      e.arc[k] = s;
      s += Math.hypot(e.x2[k] - e.x1[k], e.y2[k] - e.y1[k]);
      e.start[k] = first;
      e.count[k] = m;
    }
    for (let i = first; i < k; i++) e.perimeter[i] = s;
  }
  return e;
}
