import type { SurfaceArea, SurfaceLine } from '../types.ts';
import { deckHeight, drapeLattice, pieceHeights, splitRing, type DrapeOptions } from './drape.ts';
import { DECK_STEP, splitByLength } from '../deck-height.ts';

/**
 * A finished polyline of the `surfaceLines` group in the local frame (x east, y north, z up):
 * `vertices` is flat [x0, y0, z0, x1, y1, z1, …] (the response's `vertices`, before the output
 * frame's axes are applied), without the closing duplicate when `closed`.
 *
 * SurfaceLine (types.ts) stays the plan-level input (2D `points`, plus `deck`); `drapeLine` turns
 * one into a DrapedLine, so centerlines and outlines leave the geometry code in one shape.
 */
export interface DrapedLine {
  vertices: Float64Array;
  closed: boolean;
  descriptor: Record<string, unknown>;
}

export type SurfaceOutlineOptions = DrapeOptions;

/**
 * The boundaries of the ground pieces as closed polylines (docs/ground.md "Linework", outlines):
 * every ring (outer and holes) of every polygon of every area, descriptor `{...area.descriptor,
 * kind: 'outline'}`. Heights exactly as the piece's mesh (surfaceMeshes): draped rings are split at
 * the same lattice lines as the mesh's boundary, so the line lies on the mesh's edge vertex for
 * vertex; undraped pieces with their own vertices on the ground; a deck's rings split every
 * DECK_STEP at its top (the slab's top edge, deck-slab.ts). A boundary shared by two
 * pieces is drawn once per piece (each piece's outline is complete on its own).
 *
 * @example
 * const lines = surfaceOutlines(pieces, { ground, drape: true });
 */
export function surfaceOutlines(areas: readonly SurfaceArea[], options: SurfaceOutlineOptions): DrapedLine[] {
  const out: DrapedLine[] = [];
  for (const area of areas) {
    const descriptor = { ...area.descriptor, kind: 'outline' };
    for (const fp of area.footprints) {
      const { z, lattice } = pieceHeights(fp, area.deck, options);
      for (const ring of [fp.outer, ...fp.holes]) {
        const points = area.deck ? splitByLength(ring, DECK_STEP) : splitRing(ring, lattice);
        out.push({ vertices: withHeights(points, z), closed: true, descriptor });
      }
    }
  }
  return out;
}

/**
 * Drapes a plan polyline (a centerline, or any SurfaceLine) the way surface pieces are draped:
 * split at the lattice lines and on the ground with terrain and `drape`; on a bridge, split every
 * DECK_STEP and at the deck's top; with `drape` false its own vertices on the ground, nothing added;
 * z = 0 without terrain.
 */
export function drapeLine(line: SurfaceLine, options: DrapeOptions): DrapedLine {
  const { points, closed, deck, descriptor } = line;
  if (deck) return { vertices: withHeights(splitByLength(points, DECK_STEP, closed), (x, y) => deckHeight(deck, x, y)), closed, descriptor };
  const { ground } = options;
  if (!ground) return { vertices: withHeights(points, () => 0), closed, descriptor };
  if (!options.drape || ground.grids.length === 0) return { vertices: withHeights(points, ground), closed, descriptor };
  return { vertices: withHeights(splitRing(points, drapeLattice(options), closed), ground), closed, descriptor };
}

function withHeights(points: number[], z: (x: number, y: number) => number): Float64Array {
  const n = points.length / 2;
  const out = new Float64Array(3 * n);
  for (let i = 0; i < n; i++) {
    const x = points[2 * i],
      y = points[2 * i + 1];
    out[3 * i] = x;
    out[3 * i + 1] = y;
    out[3 * i + 2] = z(x, y);
  }
  return out;
}
