import type { GeoBox } from '../../frame/geo-box.ts';
import type { Attribution } from '../attributions.ts';

/**
 * The elevation-source interface every DEM kind implements (SRTM .hgt, GeoTIFF/COG, Terrarium and
 * Terrain-RGB PNG pyramids, mosaics of these). Heights are metres above sea level; positions are
 * WGS84 longitude/latitude degrees. A worker reads one window per tile and samples it
 * synchronously, so sampling never does I/O.
 */

/** Credit line of an elevation source: a response `attributions` entry. */
export type DemAttribution = Attribution;

export interface ReadWindowOptions {
  /**
   * Finest detail the caller will use, metres. Sources with several resolutions (PNG pyramids)
   * pick the coarsest level that is still at least this fine; single-resolution sources ignore it.
   */
  resolutionMetres?: number;
  signal?: AbortSignal;
}

/** Decoded elevations around a lon/lat box, sampled without I/O. */
export interface ElevationWindow {
  /**
   * Bilinear height at (lon, lat) in metres, or NaN where no source of the window covers the
   * point. Within half a pixel of a raster's outer edge the edge pixels are extended.
   */
  sample(lon: number, lat: number): number;
  /** Credit lines of the sources that contributed data to this window. */
  readonly attributions: readonly DemAttribution[];
  /** Decoded bytes held by the window (for cache accounting and diagnostics). */
  readonly byteSize: number;
}

export interface ElevationSource {
  /** Stable identifier (kind + location), also used as the cache key prefix. */
  readonly id: string;
  /** Area covered, degrees. */
  readonly bounds: GeoBox;
  /** Finest pixel size in degrees of latitude (north–south pixel size, or its equivalent). */
  readonly resolutionDegrees: number;
  /** Finest pixel size in metres: the smaller of the two pixel sides, at the source's central latitude. */
  readonly resolutionMetres: number;
  /** Finest pixel size in metres on the ground at latitude `lat` (pixel sides in degrees shrink with cos(lat)). */
  resolutionMetresAt(lat: number): number;
  /** Credit line of the (first) source; a mosaic lists all of them in `attributions`. */
  readonly attribution: DemAttribution;
  readonly attributions: readonly DemAttribution[];
  /**
   * Decodes what is needed to sample anywhere inside `bbox` (bilinear neighbours included),
   * reading only the blocks/rows/tiles that intersect it. Decoded blocks are cached per thread.
   */
  readWindow(bbox: GeoBox, options?: ReadWindowOptions): Promise<ElevationWindow>;
  /** Convenience: bilinear height at one point (reads a tiny window); NaN when not covered. */
  sampleLonLat(lon: number, lat: number): Promise<number>;
  /** Releases file handles; the source must not be used afterwards. */
  close(): Promise<void>;
}
