import type { IndexedMesh } from '../../types.ts';
import { frustum, model } from './solids.ts';

/** The key of the marker: the model of a node type no model knows. */
export const MARKER_KEY = 'marker';

/**
 * What a node of an unknown type is drawn as: a 1 m square post with a pointed top (12 faces),
 * plainly a placeholder, standing on z = 0 at the origin like every model.
 */
export function markerModel(): IndexedMesh {
  return model((b) => {
    frustum(b, 0, 0, 0, 0.8, 0.1, 0.1, 4, Math.PI / 4);
    frustum(b, 0, 0, 0.79, 1, 0.14, 0, 4, Math.PI / 4);
  });
}
