import type { ProfileName } from './types.ts';

/**
 * Cross-sections as convex polygons of (u, v): u across the line (+1 the left edge, −1 the right
 * edge, scaled by half the width), v up (0 the ground, 1 the top, scaled by the height). All run
 * the same way round — bottom left → bottom right → up the right side → across the top — which
 * sweep.ts relies on for outward winding; being convex, a cap is a fan from the first point.
 */
export const PROFILES: Record<ProfileName, readonly (readonly [number, number])[]> = {
  box: [
    [1, 0],
    [-1, 0],
    [-1, 1],
    [1, 1],
  ],
  /** A trimmed hedge: straight sides, shoulders rounded over the top third. */
  rounded: [
    [1, 0],
    [-1, 0],
    [-1, 0.6],
    [-0.8, 0.85],
    [-0.45, 1],
    [0.45, 1],
    [0.8, 0.85],
    [1, 0.6],
  ],
  /** Earth dyke: sides about 1:1.5 at the default 2 m × 6 m. */
  trapezoid: [
    [1, 0],
    [-1, 0],
    [-0.3, 1],
    [0.3, 1],
  ],
  /** The convex envelope of the New Jersey shape: a 7 cm upright foot, sloping faces, a 15 cm top. */
  jersey: [
    [1, 0],
    [-1, 0],
    [-1, 0.09],
    [-0.25, 1],
    [0.25, 1],
    [1, 0.09],
  ],
};
