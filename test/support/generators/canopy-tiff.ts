import { writeFile } from 'node:fs/promises';
import { writeArrayBuffer } from 'geotiff';

export interface ChmTiffOptions {
  /** EPSG code of a projected CRS. */
  epsg: number;
  /** CRS coordinates of the raster's north-west corner (pixel-is-area). */
  west: number;
  north: number;
  /** Pixel side in CRS units. */
  pixel: number;
  /** Store as unsigned 16-bit integers of value / scale (e.g. 0.1 = decimetres) instead of Float32. */
  uint16Scale?: number;
  /** GDAL_NODATA; NaN cells are written as this value. */
  nodata?: number;
}

/** Writes a single-band canopy height GeoTIFF (geotiff's writer: Float32 or Uint16). */
export async function writeChmTiff(path: string, data: Float32Array, width: number, height: number, o: ChmTiffOptions): Promise<string> {
  const meta: Record<string, unknown> = {
    width,
    height,
    ModelPixelScale: [o.pixel, o.pixel, 0],
    ModelTiepoint: [0, 0, 0, o.west, o.north, 0],
    ProjectedCSTypeGeoKey: o.epsg,
    GTModelTypeGeoKey: 1,
    GTRasterTypeGeoKey: 1,
  };
  if (o.nodata !== undefined) meta.GDAL_NODATA = String(o.nodata);
  let values: Float32Array | Uint16Array;
  if (o.uint16Scale) {
    values = Uint16Array.from(data, (v) => (Number.isNaN(v) ? (o.nodata ?? 65535) : Math.round(Math.max(0, v) / o.uint16Scale!)));
    Object.assign(meta, { BitsPerSample: [16], SampleFormat: [1] });
  } else {
    values = Float32Array.from(data, (v) => (Number.isNaN(v) && o.nodata !== undefined ? o.nodata : v));
  }
  await writeFile(path, Buffer.from(writeArrayBuffer(values, meta as never)));
  return path;
}

/** Columns [c0, c1) × rows [r0, r1) of a row-major grid. */
export function crop(data: Float32Array, width: number, c0: number, r0: number, c1: number, r1: number): Float32Array {
  const out = new Float32Array((c1 - c0) * (r1 - r0));
  for (let r = r0; r < r1; r++) out.set(data.subarray(r * width + c0, r * width + c1), (r - r0) * (c1 - c0));
  return out;
}
