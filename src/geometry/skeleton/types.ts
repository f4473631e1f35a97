/** What every straight-skeleton construction of this kit returns (convex.ts, wavefront.ts, cgal.ts). */

export interface FootprintSkeleton {
  /** Number of footprint ring vertices (outer then holes); face entries below it are ring vertex indices. */
  ringVertexCount: number;
  /** Skeleton nodes: face entries ≥ ringVertexCount refer to node (entry − ringVertexCount). */
  nodeX: number[];
  nodeY: number[];
  /** Offset time of each node = its distance from the sides of its faces (metres). */
  nodeT: number[];
  /** One counter-clockwise face per footprint side: [sideEnd, …nodes, sideStart]. */
  faces: number[][];
  /** Largest node time. */
  maxT: number;
  /** True when it came from CGAL (exact predicates), false or absent from a fast path. */
  exact?: boolean;
}

export interface SkeletonStats {
  /** CGAL calls, failures and milliseconds spent in them. */
  calls: number;
  failures: number;
  ms: number;
  /** Footprints served by the convex fast path, and milliseconds spent in it. */
  convexCalls: number;
  convexMs: number;
  /** Footprints tried on the double-precision wavefront, how many it could not do (CGAL then ran), and milliseconds. */
  wavefrontCalls: number;
  wavefrontRejected: number;
  wavefrontMs: number;
}
