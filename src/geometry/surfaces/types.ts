import type { Footprint, IndexedMesh, Ring } from '../types.ts';

/**
 * The ground as a designer needs it: non-overlapping pieces that tile the area the way it really is
 * (docs/design.md surface kinds). Everything here is in the request's local frame (x east, y north,
 * metres); z comes from the terrain, or 0 without terrain.
 */

export const SURFACE_KINDS = [
  'asphalt',
  'roadwayIntersection',
  'roadwayArea',
  'pavement',
  'water',
  'farmland',
  'grass',
  'manicuredGrass',
  'forest',
  'garden',
  'sand',
  'rock',
  'pitch',
  'helipad',
  'construction',
  'buildingConstruction',
  'shrubbery',
] as const;

export type SurfaceKind = (typeof SURFACE_KINDS)[number];

/**
 * A deck that is not draped: the top of a bridge. Heights are absolute when there is terrain
 * (metres above sea level), else metres above the flat ground. With `axes` (what the road builder
 * gives, roads/bridge-profile.ts) the top at a point is that of the nearest point of the axes in
 * plan; without, it runs linearly from `start` to `end` (deck-height.ts).
 */
export interface DeckElevation {
  /** Deck top at the start and end of the way (its first and last vertices). */
  start: { x: number; y: number; z: number };
  end: { x: number; y: number; z: number };
  /** The deck's profile: polylines, each flat [x0, y0, z0, x1, y1, z1, …] (a level deck: one point). */
  axes?: number[][];
}

/** One area of ground as mapped, before overlaps are resolved. */
export interface SurfaceArea {
  kind: SurfaceKind;
  /** Where areas overlap the higher priority keeps the ground (see surfaces/priority.ts). */
  priority: number;
  /** Valid footprints (normalised: outer counter-clockwise, holes clockwise). */
  footprints: Footprint[];
  /** Response descriptor: `type` (= kind), `id` (`way/1`), the source tags that decided it, `layer`, … */
  descriptor: Record<string, unknown>;
  /** Set for bridges: the piece is laid at deck height instead of draped. */
  deck?: DeckElevation;
  /**
   * Size (m²) that settles ties of equal priority in favour of the smaller; default the area of
   * the footprints. Road strips give width × the whole way's length, so the answer does not depend
   * on how much of a way a tile built.
   */
  size?: number;
  /**
   * Areas with the same set name were made not to overlap one another (to the grid's rounding):
   * the road pieces on the ground, resolved among themselves (roads/pieces.ts). resolveOverlaps
   * then does not cut them by each other, only by the rest.
   */
  disjointSet?: string;
}

/** A road, path or waterway axis (or a piece's boundary) as a polyline in the local frame. */
export interface SurfaceLine {
  /** Flat [x0, y0, x1, y1, …]. */
  points: Ring;
  closed: boolean;
  /** Response descriptor: `type` (surface kind), `kind` (`centerline` | `outline`), `id`, … */
  descriptor: Record<string, unknown>;
  deck?: DeckElevation;
}

/** A finished piece of ground: an upward-facing, single-sided mesh with its descriptor. */
export interface SurfaceMesh {
  mesh: IndexedMesh;
  descriptor: Record<string, unknown>;
}
