/**
 * Shared geometry types. All geometry code works in the local metric frame of a request
 * (x east, y north, z up, metres; see src/frame/local-frame.ts) and leaves CRS and axis
 * conventions to src/frame.
 */

/** A ring as a flat list [x0, y0, x1, y1, …] without the closing duplicate. */
export type Ring = number[];

/** A polygon with holes. After `normalizeFootprint` the outer ring is counter-clockwise and holes are clockwise. */
export interface Footprint {
  outer: Ring;
  holes: Ring[];
}

/** An indexed triangle mesh in the local z-up frame; triangles wind counter-clockwise seen from outside. */
export interface IndexedMesh {
  positions: Float64Array;
  indices: Uint32Array;
}

/** Axis-aligned box in the local frame. */
export interface BBox {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}
