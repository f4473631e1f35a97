/** Tree detection from canopy height models (pure; src/sources/canopy reads the rasters). */
export { detectTrees } from './detect-trees.ts';
export {
  CANOPY_DETECT_DEFAULTS,
  detectionMargin,
  windowRadius,
  type CanopyDetectOptions,
  type CanopyDetectTuning,
  type CanopyGrid,
  type DetectedTree,
} from './types.ts';
