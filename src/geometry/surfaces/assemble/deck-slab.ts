import type { Footprint } from '../../types.ts';
import type { MeshBuilder } from '../../mesh-builder.ts';
import type { DeckElevation } from '../types.ts';
import { DECK_STEP, DECK_THICKNESS, deckHeight, splitByLength } from '../deck-height.ts';

/**
 * A bridge deck as a slab one can see from below (docs/ground.md "Bridges, tunnels and heights"):
 * the piece's top at the deck's height, the same triangles DECK_THICKNESS lower facing down, and a
 * side wall along every boundary edge of the top, so each deck piece is a closed, outward-facing
 * solid. Sides are split every DECK_STEP first (deckFootprint), so the top bends with the deck's
 * profile between its corners instead of spanning a ramp with one plane.
 */
export function deckFootprint(fp: Footprint): Footprint {
  return { outer: splitByLength(fp.outer, DECK_STEP), holes: fp.holes.map((h) => splitByLength(h, DECK_STEP)) };
}

/**
 * Adds the slab over a plan triangulation of a deck piece (`triangles` counter-clockwise from
 * above, indices into `coords` [x0, y0, …]). The walls stand on the triangulation's own boundary
 * (directed edges without their opposite), so top, bottom and walls meet edge for edge even where
 * the triangulation left a ring vertex out.
 */
export function addDeckSlab(builder: MeshBuilder, coords: readonly number[], triangles: readonly number[], deck: DeckElevation): void {
  const n = coords.length / 2;
  const top = new Int32Array(n).fill(-1),
    bottom = new Int32Array(n).fill(-1);
  const z = new Float64Array(n);
  const at = (i: number, under: boolean) => {
    const ids = under ? bottom : top;
    if (ids[i] < 0) {
      if (top[i] < 0 && bottom[i] < 0) z[i] = deckHeight(deck, coords[2 * i], coords[2 * i + 1]);
      ids[i] = builder.vertex(coords[2 * i], coords[2 * i + 1], under ? z[i] - DECK_THICKNESS : z[i]);
    }
    return ids[i];
  };
  const edges = new Set<number>();
  for (let t = 0; t < triangles.length; t += 3) {
    const a = triangles[t],
      b = triangles[t + 1],
      c = triangles[t + 2];
    builder.triangle(at(a, false), at(b, false), at(c, false));
    builder.triangle(at(a, true), at(c, true), at(b, true));
    edges
      .add(a * n + b)
      .add(b * n + c)
      .add(c * n + a);
  }
  for (const e of edges) {
    const a = Math.floor(e / n),
      b = e - a * n;
    if (edges.has(b * n + a)) continue;
    // the outside of a counter-clockwise boundary edge a→b is to its right
    builder.triangle(at(a, false), at(a, true), at(b, true));
    builder.triangle(at(a, false), at(b, true), at(b, false));
  }
}
