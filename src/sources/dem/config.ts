import { readdir, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { REPO_ROOT } from '../../repo-root.ts';
import { SRTM_ATTRIBUTION, genericDemAttribution, withAttribution } from './attribution.ts';
import { openGeoTiff } from './geotiff-source.ts';
import { openHgt, parseHgtName } from './hgt.ts';
import { MosaicElevationSource } from './mosaic.ts';
import { PngPyramidSource } from './png-tiles.ts';
import type { ElevationSource } from './types.ts';
import { perThread } from '../per-thread.ts';

/** The embedded default: the bundled SRTM3 tile around Monaco (data/README.md). */
export const DEFAULT_DEM_PATH = join(REPO_ROOT, 'data/dem/N43E007.hgt');

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

/** One configured elevation source. Sources listed earlier win where they overlap. */
export const demSourceConfigSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('hgt'),
    /** A .hgt file, or a directory whose N..E...hgt files form a mosaic. */
    path: z.string(),
    attribution: attributionSchema.optional(),
  }),
  z.object({
    kind: z.literal('geotiff'),
    /** Local file path or http(s) URL (read with Range requests). */
    path: z.string(),
    /** Overrides the declared CRS: EPSG:<code> or a proj4 string. */
    crs: z.string().optional(),
    nodata: z.number().optional(),
    headers: z.record(z.string(), z.string()).optional(),
    attribution: attributionSchema.optional(),
  }),
  z.object({
    kind: z.enum(['terrarium', 'terrain-rgb']),
    /** URL or path template with {z}/{x}/{y}, or a directory of {z}/{x}/{y}.png. */
    tiles: z.string(),
    maxZoom: z.number().int().min(0).max(24),
    minZoom: z.number().int().min(0).max(24).optional(),
    tileSize: z.number().int().positive().optional(),
    headers: z.record(z.string(), z.string()).optional(),
    attribution: attributionSchema.optional(),
  }),
]);

export type DemSourceConfig = z.infer<typeof demSourceConfigSchema>;
export const demConfigSchema = z.array(demSourceConfigSchema);

/**
 * Opens the configured elevation sources: one source as is, several as a mosaic in the listed
 * order. With nothing configured (undefined, null or []), the bundled SRTM tile for Monaco.
 *
 * @example
 * const dem = await createElevationSourceFromConfig([{ kind: 'hgt', path: '/data/srtm' }]);
 */
export async function createElevationSourceFromConfig(config?: readonly DemSourceConfig[] | null): Promise<ElevationSource> {
  const list = config && config.length > 0 ? demConfigSchema.parse(config) : [{ kind: 'hgt', path: DEFAULT_DEM_PATH } as DemSourceConfig];
  const sources = (await Promise.all(list.map(openOne))).flat();
  if (sources.length === 0) throw new Error('no elevation data found in the configured sources');
  return sources.length === 1 ? sources[0] : new MosaicElevationSource(sources);
}

async function openOne(entry: DemSourceConfig): Promise<ElevationSource[]> {
  switch (entry.kind) {
    case 'hgt': {
      const attribution = withAttribution(SRTM_ATTRIBUTION, entry.attribution);
      const path = resolve(REPO_ROOT, entry.path);
      if ((await stat(path)).isDirectory()) {
        const names = (await readdir(path)).filter((n) => parseHgtName(n)).sort();
        return Promise.all(names.map((n) => openHgt(join(path, n), attribution)));
      }
      return [await openHgt(path, attribution)];
    }
    case 'geotiff': {
      const remote = /^https?:\/\//i.test(entry.path);
      const location = remote ? entry.path : resolve(REPO_ROOT, entry.path);
      const attribution = withAttribution(genericDemAttribution(`dem:${location}`, location.split('/').pop() ?? location), entry.attribution);
      return [await openGeoTiff(location, { crs: entry.crs, nodata: entry.nodata, headers: entry.headers, attribution })];
    }
    case 'terrarium':
    case 'terrain-rgb': {
      const remote = /^https?:\/\//i.test(entry.tiles);
      const tiles = remote ? entry.tiles : resolve(REPO_ROOT, entry.tiles);
      const attribution = withAttribution(genericDemAttribution(`dem:${tiles}`, `${entry.kind} tiles`), entry.attribution);
      return [
        new PngPyramidSource({
          encoding: entry.kind,
          tiles,
          maxZoom: entry.maxZoom,
          minZoom: entry.minZoom,
          tileSize: entry.tileSize,
          headers: entry.headers,
          attribution,
        }),
      ];
    }
  }
}

/**
 * The elevation source for a config, opened once per thread and reused by every task the thread
 * runs (workers call this per tile; the first call opens files, later calls are a map lookup).
 */
export const sharedElevationSource = perThread<DemSourceConfig, ElevationSource>(createElevationSourceFromConfig);
