/**
 * Numeric limits of the request contract, in one place so the schema, the polygon rules, the
 * OpenAPI text and the tests all quote the same numbers.
 */

/** Largest polygon per request (docs/spec.md "Limits"), in km² of turf's geodesic (spherical) area. */
export const MAX_AREA_KM2 = 10;

/** A closed ring needs at least 4 points (3 corners plus the closing copy of the first). */
export const MIN_POLYGON_POINTS = 4;

/**
 * Most points accepted in `polygon`. The spec names no limit; 10,000 is far more than any
 * hand-drawn or GIS-exported outline of ≤ 10 km² needs, and keeps validation in the millisecond range.
 */
export const MAX_POLYGON_POINTS = 10_000;

/**
 * Bounds of numeric settings (the spec gives only defaults). Chosen to be generous for real cities
 * while rejecting values that can only be typos or abuse.
 */
export const SETTING_BOUNDS = {
  /** Levels per building: the tallest buildings have ~160 levels. Fractions are allowed (OSM uses e.g. 1.5). */
  defaultLevels: { exclusiveMin: 0, max: 200 },
  /** Metres per level: ordinary storeys are 2.5–5 m, halls and atria up to ~20 m. */
  defaultLevelHeight: { exclusiveMin: 0, max: 20 },
  /** Metres: the 1-metre canopy model cannot tell shrubs under 1 m from ground; the tallest trees are ~116 m. */
  canopyMinHeight: { min: 1, max: 100 },
  /** Metres: below the 1 m raster resolution spacing is meaningless; 100 m already thins a forest to a few trees. */
  canopyMinSpacing: { min: 1, max: 100 },
  /** Whole number of trees; 40,000 is both the default and the hard cap of the spec. */
  canopyMaxTrees: { min: 1, max: 40_000 },
} as const;

/**
 * Most details listed in one error body; the rest are counted in a last detail. A body with a
 * million bad entries must not produce a million-line answer.
 */
export const MAX_ERROR_DETAILS = 10;

/** Deepest nesting of arrays and objects in a request body; a real body nests 4 deep. */
export const MAX_JSON_DEPTH = 32;

/**
 * Most keys in one JSON object of a request body, checked before parsing. The largest object of
 * the request format (`settings`) has a few dozen; unknown keys are ignored, but hundreds of
 * thousands of them cost seconds of validation at the minimum price.
 */
export const MAX_OBJECT_KEYS = 256;

/**
 * Widest polygon, km along its north–south or east–west extent. 10 km² as a 20 km × 0.5 km corridor
 * still fits; a 4,000 km sliver of 0.01 km² does not (its tiles, not its area, are the cost).
 */
export const MAX_EXTENT_KM = 20;

/**
 * Farthest `origin` from the polygon's bounding box, km. The local frame is a transverse Mercator on
 * the origin; beyond this the coordinates stop meaning anything useful.
 */
export const MAX_ORIGIN_DISTANCE_KM = 50;
