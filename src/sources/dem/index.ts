/** Elevation sources (DEMs): one import for workers and the pipeline. */
export type { DemAttribution, ElevationSource, ElevationWindow, ReadWindowOptions } from './types.ts';
export { SRTM_ATTRIBUTION } from './attribution.ts';
export {
  createElevationSourceFromConfig,
  sharedElevationSource,
  demConfigSchema,
  demSourceConfigSchema,
  DEFAULT_DEM_PATH,
  type DemSourceConfig,
} from './config.ts';
export { readTileElevation, type TileElevation, type TileElevationOptions } from './read-tile-elevation.ts';
export { openHgt } from './hgt.ts';
export { openGeoTiff } from './geotiff-source.ts';
export { PngPyramidSource } from './png-tiles.ts';
export { MosaicElevationSource } from './mosaic.ts';
export { sharedBlockCache } from './byte-lru.ts';
