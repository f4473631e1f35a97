import type { TileContext } from '../family.ts';

/**
 * What the ground of a square is built from: the store, the frame, the square and the ground under
 * it. A request's tile is one; a cell of the ground cache (ground-cells.ts) is another.
 */
export type GroundSquare = Pick<TileContext, 'source' | 'frame' | 'bbox' | 'lonLatBBox' | 'ground'>;
