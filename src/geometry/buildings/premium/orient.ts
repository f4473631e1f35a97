/**
 * Turning every face outwards. Surfaces of a city model come in whatever winding their producer
 * used (GroundSurfaces usually face down, but not always; filled openings have none). Triangles
 * sharing an edge must walk it in opposite directions: a breadth-first walk over the shared edges
 * makes every connected piece consistent, and a piece whose enclosed volume comes out negative is
 * turned round as a whole.
 */
import { edgeKey, edgeUses, type Soup } from './soup.ts';

export interface Orientation {
  /** Edges shared by two triangles that could not both be satisfied (a Möbius-like or self-touching piece). */
  conflicts: number;
  /** Edges used by more than two triangles (faces meeting like pages of a book). */
  nonManifold: number;
  /** Connected pieces. */
  pieces: number;
}

export function orientOutward(soup: Soup): Orientation {
  const n = soup.positions.length / 3;
  const t3 = soup.triangles;
  const count = t3.length / 3;
  const uses = edgeUses(soup);
  let nonManifold = 0;
  for (const list of uses.values()) if (list.length > 2) nonManifold++;
  const flip = new Int8Array(count);
  const piece = new Int32Array(count).fill(-1);
  let pieces = 0,
    conflicts = 0;
  // does triangle t walk the edge from its smaller to its larger vertex?
  const forward = (t: number, key: number): boolean => {
    for (let k = 0; k < 3; k++) {
      const a = t3[3 * t + k],
        b = t3[3 * t + ((k + 1) % 3)];
      if (edgeKey(a, b, n) === key) return a < b;
    }
    return false;
  };
  for (let seed = 0; seed < count; seed++) {
    if (piece[seed] >= 0) continue;
    const id = pieces++;
    piece[seed] = id;
    const queue = [seed];
    while (queue.length) {
      const t = queue.pop()!;
      for (let k = 0; k < 3; k++) {
        const key = edgeKey(t3[3 * t + k], t3[3 * t + ((k + 1) % 3)], n);
        const list = uses.get(key)!;
        if (list.length !== 2) continue;
        const u = list[0] === t ? list[1] : list[0];
        const wanted = (forward(t, key) !== (flip[t] === 1)) === forward(u, key) ? 1 : 0;
        if (piece[u] < 0) {
          piece[u] = id;
          flip[u] = wanted;
          queue.push(u);
        } else if (flip[u] !== wanted && u !== t) conflicts++;
      }
    }
  }
  for (let t = 0; t < count; t++) if (flip[t]) [t3[3 * t + 1], t3[3 * t + 2]] = [t3[3 * t + 2], t3[3 * t + 1]];
  // each piece: outward when its signed volume is positive
  const volume = new Float64Array(pieces);
  const p = soup.positions;
  for (let t = 0; t < count; t++) {
    const a = 3 * t3[3 * t],
      b = 3 * t3[3 * t + 1],
      c = 3 * t3[3 * t + 2];
    volume[piece[t]] +=
      p[a] * (p[b + 1] * p[c + 2] - p[b + 2] * p[c + 1]) - p[a + 1] * (p[b] * p[c + 2] - p[b + 2] * p[c]) + p[a + 2] * (p[b] * p[c + 1] - p[b + 1] * p[c]);
  }
  for (let t = 0; t < count; t++) if (volume[piece[t]] < 0) [t3[3 * t + 1], t3[3 * t + 2]] = [t3[3 * t + 2], t3[3 * t + 1]];
  // each conflicting edge is seen from both of its triangles
  return { conflicts: conflicts / 2, nonManifold, pieces };
}
