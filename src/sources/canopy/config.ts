import { readdir, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { REPO_ROOT } from '../../repo-root.ts';
import { openGeoTiffReader } from '../dem/geotiff-source.ts';
import { canopyAttribution } from './attribution.ts';
import { openCanopySource } from './canopy-source.ts';
import type { CanopySource } from './types.ts';
import { perThread } from '../per-thread.ts';

const attributionSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    text: z.string(),
    license: z.string(),
    url: z.string(),
    required: z.boolean(),
  })
  .partial();

/** One configured canopy height model (CITY_CANOPY_SOURCES is a JSON array of these; earlier ones win where they overlap). */
export const canopySourceConfigSchema = z.object({
  kind: z.literal('geotiff').default('geotiff'),
  /** A GeoTIFF/COG file, an http(s) URL (Range reads), or a directory whose *.tif files are read as one mosaic. */
  path: z.string(),
  /** Overrides the declared CRS: EPSG:<code> or a proj4 string. Must be projected (metres or feet). */
  crs: z.string().optional(),
  /** Overrides the file's GDAL_NODATA value. */
  nodata: z.number().optional(),
  /** Stored value × scale + offset = metres (e.g. 0.1 for decimetre integers); default: the file's GDAL SCALE/OFFSET, else 1 and 0. */
  scale: z.number().positive().optional(),
  offset: z.number().optional(),
  headers: z.record(z.string(), z.string()).optional(),
  /** Credit line; set `license` (and `name`, `url`) to what the data's provider asks for. */
  attribution: attributionSchema.optional(),
  /**
   * Detection tuned to this product (src/geometry/canopy/types.ts; defaults in
   * CANOPY_DETECT_DEFAULTS): window radius = windowSlope × height + windowIntercept, crown floor, crown radius bound.
   */
  detection: z
    .object({
      windowSlope: z.number().min(0).max(1),
      windowIntercept: z.number().min(0).max(20),
      crownMinHeight: z.number().min(0).max(100),
      crownHeightShare: z.number().min(0).max(1),
      maxCrownRadius: z.number().positive().max(50),
    })
    .partial()
    .optional(),
});

export type CanopySourceConfig = z.input<typeof canopySourceConfigSchema>;
export const canopyConfigSchema = z.array(canopySourceConfigSchema);

/**
 * Opens the configured canopy rasters as one source; null when none is configured (then the
 * canopy tree sources fall back, with a warning).
 *
 * @example
 * const chm = await createCanopySourceFromConfig([{ path: '/data/chm', attribution: { license: 'CC BY 4.0' } }]);
 */
export async function createCanopySourceFromConfig(config?: readonly CanopySourceConfig[] | null): Promise<CanopySource | null> {
  if (!config || config.length === 0) return null;
  const list = canopyConfigSchema.parse(config);
  const members = [];
  for (const entry of list) {
    const remote = /^https?:\/\//i.test(entry.path);
    const location = remote ? entry.path : resolve(REPO_ROOT, entry.path);
    const files =
      !remote && (await stat(location)).isDirectory()
        ? (await readdir(location))
            .filter((n) => /\.tiff?$/i.test(n))
            .sort()
            .map((n) => join(location, n))
        : [location];
    const attribution = canopyAttribution(`canopy:${location}`, location.split('/').pop() ?? location, entry.attribution);
    for (const file of files) {
      const reader = await openGeoTiffReader(file, { crs: entry.crs, nodata: entry.nodata, headers: entry.headers });
      const gdal = entry.scale === undefined && entry.offset === undefined ? await gdalScaleOffset(reader) : null;
      members.push({
        reader,
        scale: entry.scale ?? gdal?.scale ?? 1,
        offset: entry.offset ?? gdal?.offset ?? 0,
        attribution,
        detection: entry.detection ?? {},
      });
    }
  }
  if (members.length === 0) throw new Error('no canopy rasters found in the configured sources');
  return openCanopySource(members);
}

/** SCALE and OFFSET from the GDAL metadata tag, when the file has them (integer CHMs often do). */
async function gdalScaleOffset(reader: Awaited<ReturnType<typeof openGeoTiffReader>>): Promise<{ scale?: number; offset?: number } | null> {
  const meta = await reader.image.getGDALMetadata(0).catch(() => null);
  if (!meta) return null;
  const num = (v: unknown) => (v === undefined || v === null || v === '' || !Number.isFinite(Number(v)) ? undefined : Number(v));
  return { scale: num(meta.SCALE), offset: num(meta.OFFSET) };
}

/** The canopy source of a config, opened once per thread and reused by every tile the thread builds. */
export const sharedCanopySource = perThread<CanopySourceConfig, CanopySource | null>(createCanopySourceFromConfig);
