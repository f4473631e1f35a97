import { resolve } from 'node:path';
import type { GeoTIFF, GeoTIFFImage } from 'geotiff';
import { genericDemAttribution } from './attribution.ts';
import { resolveCrs } from './crs.ts';
import type { TransferStats } from './http.ts';
import { RasterElevationSource, type PixelReader } from './raster-source.ts';
import type { RasterGeoref } from './raster-window.ts';
import type { DemAttribution } from './types.ts';

export interface GeoTiffSourceOptions {
  /** Overrides the CRS the file declares: `EPSG:<code>` or a proj4 string (needed for user-defined CRSs). */
  crs?: string;
  /** Overrides the file's GDAL_NODATA value. */
  nodata?: number;
  /** Extra HTTP headers for remote files (e.g. authorization). */
  headers?: Record<string, string>;
  attribution?: DemAttribution;
}

const GEOKEY_USER_DEFINED = 32767;
const MAX_BLOCK_PIXELS = 512 * 512;

/**
 * Georeference of a GeoTIFF image from its tie point and pixel scale (or a non-rotating model
 * transformation), honouring GTRasterTypeGeoKey: with pixel-is-area (1, the default) the tie
 * point is the corner of the first pixel, with pixel-is-point (2) it is its centre.
 */
export function geoTiffGeoref(image: GeoTIFFImage, crsOverride?: string): RasterGeoref {
  const fd = image.fileDirectory;
  const keys = image.getGeoKeys() ?? {};
  const tie = fd.getValue('ModelTiepoint') as number[] | undefined;
  const scale = fd.getValue('ModelPixelScale') as number[] | undefined;
  const transform = fd.getValue('ModelTransformation') as number[] | undefined;
  let originX: number, originY: number, dx: number, dy: number;
  if (tie && scale) {
    dx = scale[0];
    dy = -scale[1];
    originX = tie[3] - tie[0] * dx;
    originY = tie[4] - tie[1] * dy;
  } else if (transform) {
    if (transform[1] !== 0 || transform[4] !== 0) throw new Error('rotated GeoTIFFs are not supported; warp the file north-up first (gdalwarp)');
    dx = transform[0];
    dy = transform[5];
    originX = transform[3];
    originY = transform[7];
  } else {
    throw new Error('the GeoTIFF has no georeference (no tie point, pixel scale or model transformation)');
  }
  const pixelIsArea = keys.GTRasterTypeGeoKey !== 2;
  const half = pixelIsArea ? 0.5 : 0;
  return {
    crs: resolveCrs(crsOverride ?? declaredEpsg(keys)),
    width: image.getWidth(),
    height: image.getHeight(),
    x0: originX + half * dx,
    y0: originY + half * dy,
    dx,
    dy,
  };
}

function declaredEpsg(keys: Record<string, unknown>): number {
  const projected = keys.ProjectedCSTypeGeoKey as number | undefined;
  const geographic = keys.GeographicTypeGeoKey as number | undefined;
  const code = keys.GTModelTypeGeoKey === 2 ? (geographic ?? projected) : (projected ?? geographic);
  if (!code || code === GEOKEY_USER_DEFINED) throw new Error('the GeoTIFF declares no EPSG code; configure its CRS (crs: "EPSG:<code>" or a proj4 string)');
  return code;
}

/** Metres per stored unit from VerticalUnitsGeoKey (feet are converted; metres otherwise). */
function verticalScale(keys: Record<string, unknown>): number {
  if (keys.VerticalUnitsGeoKey === 9002) return 0.3048;
  if (keys.VerticalUnitsGeoKey === 9003) return 1200 / 3937;
  return 1;
}

/** Reads windows of the first (full-resolution) image of a GeoTIFF, decoding only the tiles/strips they touch. */
export class GeoTiffReader implements PixelReader {
  readonly georef: RasterGeoref;
  readonly blockWidth: number;
  readonly blockHeight: number;
  readonly voidMargin = 32;
  private readonly nodata: number | null;
  private readonly unit: number;

  constructor(
    readonly key: string,
    private readonly tiff: GeoTIFF,
    readonly image: GeoTIFFImage,
    options: GeoTiffSourceOptions,
    readonly stats?: TransferStats,
  ) {
    this.georef = geoTiffGeoref(image, options.crs);
    this.nodata = options.nodata ?? image.getGDALNoData();
    this.unit = verticalScale(image.getGeoKeys() ?? {});
    // Blocks follow the file's own tiles (or strips), bounded so a huge strip is not decoded at once.
    let bw = image.getTileWidth(),
      bh = image.getTileHeight();
    if (bw * bh > MAX_BLOCK_PIXELS) {
      bw = Math.min(bw, 512);
      bh = Math.max(1, Math.min(bh, Math.floor(MAX_BLOCK_PIXELS / bw)));
    }
    // Strips of a few rows would make thousands of tiny blocks: group them into bands of ≥ 32 rows.
    if (bh < 32) bh = Math.min(image.getHeight(), Math.ceil(32 / bh) * bh);
    this.blockWidth = bw;
    this.blockHeight = bh;
  }

  async read(col0: number, row0: number, width: number, height: number, signal?: AbortSignal): Promise<Float32Array> {
    const raster = await this.image.readRasters({ window: [col0, row0, col0 + width, row0 + height], samples: [0], interleave: true, signal });
    const out = new Float32Array(width * height);
    const nodata = this.nodata,
      nodata32 = nodata === null ? null : Math.fround(nodata);
    for (let k = 0; k < out.length; k++) {
      const v = Number(raster[k]);
      out[k] = !Number.isFinite(v) || v === nodata || v === nodata32 ? NaN : v * this.unit;
    }
    return out;
  }

  async close(): Promise<void> {
    await this.tiff.close();
  }
}

/**
 * Opens the first (full-resolution) image of a GeoTIFF or Cloud-Optimized GeoTIFF: a local path, or
 * an http(s) URL read with Range requests (only the header, the tile index and the touched tiles
 * are fetched). Shared by the elevation and the canopy sources.
 */
export async function openGeoTiffReader(location: string, options: GeoTiffSourceOptions = {}): Promise<GeoTiffReader> {
  const remote = /^https?:\/\//i.test(location);
  // Loaded here, not at the top: most installs never open a GeoTIFF (the bundled SRTM tile is .hgt),
  // and every thread that imports geotiff holds ~20 MB more.
  const { fromCustomClient, fromFile } = await import('geotiff');
  let tiff: GeoTIFF;
  let stats: TransferStats | undefined;
  let key: string;
  if (remote) {
    const { UndiciGeoTiffClient } = await import('./geotiff-http-client.ts');
    const client = new UndiciGeoTiffClient(location, options.headers);
    stats = client.stats;
    tiff = await fromCustomClient(client, { maxRanges: 0, allowFullFile: false });
    key = `tif:${location}`;
  } else {
    const path = resolve(location);
    tiff = await fromFile(path);
    key = `tif:${path}`;
  }
  const image = await tiff.getImage(0);
  return new GeoTiffReader(key, tiff, image, options, stats);
}

/** An elevation source over a GeoTIFF or Cloud-Optimized GeoTIFF (local path or http(s) URL). */
export async function openGeoTiff(location: string, options: GeoTiffSourceOptions = {}): Promise<RasterElevationSource> {
  const reader = await openGeoTiffReader(location, options);
  return new RasterElevationSource(reader, { attribution: options.attribution ?? genericDemAttribution(reader.key, location.split('/').pop() ?? location) });
}
