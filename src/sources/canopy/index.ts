/** Canopy height models: the rasters tree detection reads (one import for workers and tests). */
export type { CanopySource, CanopyWindow } from './types.ts';
export { canopyConfigSchema, canopySourceConfigSchema, createCanopySourceFromConfig, sharedCanopySource, type CanopySourceConfig } from './config.ts';
export { openCanopySource } from './canopy-source.ts';
