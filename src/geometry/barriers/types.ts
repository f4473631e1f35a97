/**
 * Barriers (docs/barriers.md): walls, fences, hedges, kerbs… as closed solids swept along their OSM
 * way. All geometry is in the local frame (x east, y north, z up, metres).
 */

/** `descriptor.type` of a barrier mesh (docs/barriers.md lists the OSM tags behind each). */
export type BarrierKind =
  | 'wall'
  | 'fence'
  | 'hedge'
  | 'retaining_wall'
  | 'city_wall'
  | 'guard_rail'
  | 'handrail'
  | 'jersey_barrier'
  | 'kerb'
  | 'bollard'
  | 'gate'
  | 'lift_gate'
  | 'embankment'
  | 'dyke';

/** Cross-section a barrier is swept with (profiles.ts). */
export type ProfileName = 'box' | 'rounded' | 'trapezoid' | 'jersey';

/** How a barrier becomes a solid: a strip along its line, a row of posts, or a filled area (`area=yes` hedges). */
export type BarrierShape = 'strip' | 'posts' | 'area';

/** A barrier as the tags describe it (tags/index.ts). */
export interface BarrierTags {
  kind: BarrierKind;
  /** Metres above the ground. */
  height: number;
  /** Metres across (a post's side for bollard rows). */
  width: number;
  profile: ProfileName;
  shape: BarrierShape;
  /** Distance between posts (bollard rows), metres. */
  spacing?: number;
  /** Opening of a gate mapped as a node, metres, where neither the gate nor its road says. */
  span?: number;
  material?: string;
  colour?: string;
  heightSource: 'tag' | 'default';
  widthSource: 'tag' | 'default';
  /** Tags that were present but unusable, as `key=value`. */
  dataNotes?: string[];
}

/** A polyline or ring in the local frame: flat [x0, y0, x1, y1, …], rings without the closing duplicate. */
export interface BarrierLine {
  points: number[];
  closed: boolean;
  /** For the rings of an area: which of its polygons the ring belongs to (each polygon's outer ring comes first). */
  polygon?: number;
}
