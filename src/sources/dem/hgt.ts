import { open, stat, type FileHandle } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import { SRTM_ATTRIBUTION } from './attribution.ts';
import { resolveCrs } from './crs.ts';
import { RasterElevationSource, type PixelReader } from './raster-source.ts';
import type { RasterGeoref } from './raster-window.ts';
import type { DemAttribution } from './types.ts';

/** SRTM void marker. */
export const HGT_VOID = -32768;

/**
 * South-west corner of an SRTM tile from its name, e.g. `N43E007.hgt` → lat 43, lon 7;
 * null when the name does not follow the convention.
 */
export function parseHgtName(path: string): { lat: number; lon: number } | null {
  const m = /^([NS])(\d{1,2})([EW])(\d{1,3})(?:\.SRTMGL\d)?\.hgt$/i.exec(basename(path));
  if (!m) return null;
  const lat = Number(m[2]) * (m[1].toUpperCase() === 'S' ? -1 : 1);
  const lon = Number(m[4]) * (m[3].toUpperCase() === 'W' ? -1 : 1);
  return { lat, lon };
}

/** Samples per side from the file length: 1201 (3 arc-second), 3601 (1 arc-second), or any square. */
export function hgtSizeFromBytes(bytes: number): number {
  const size = Math.round(Math.sqrt(bytes / 2));
  if (size * size * 2 !== bytes || size < 2) throw new Error(`not an SRTM .hgt file: ${bytes} bytes is not a square grid of int16`);
  return size;
}

/**
 * Georeference of a .hgt tile: pixel-is-point, first row northernmost, samples on whole
 * arc-seconds, so the edge rows/columns lie exactly on the integer degrees (shared with neighbours).
 */
export function hgtGeoref(sw: { lat: number; lon: number }, size: number): RasterGeoref {
  const step = 1 / (size - 1);
  return { crs: resolveCrs(4326), width: size, height: size, x0: sw.lon, y0: sw.lat + 1, dx: step, dy: -step };
}

/**
 * Reads rectangles of a .hgt file with positional reads: only the needed rows ever leave the disk.
 * A block is a band of whole rows (contiguous in the file, so one read): 48 rows of SRTM3 are
 * 115 KB on disk, 16 rows of SRTM1 are 115 KB too.
 */
export class HgtReader implements PixelReader {
  readonly blockWidth: number;
  readonly blockHeight: number;
  readonly voidMargin = 32;
  /** Bytes read from disk so far (diagnostics and tests). */
  bytesRead = 0;
  private handle: Promise<FileHandle> | null = null;

  constructor(
    readonly path: string,
    readonly georef: RasterGeoref,
  ) {
    this.blockWidth = georef.width;
    this.blockHeight = Math.max(8, Math.round(57_600 / georef.width));
  }

  get key(): string {
    return `hgt:${this.path}`;
  }

  async read(col0: number, row0: number, width: number, height: number): Promise<Float32Array> {
    const size = this.georef.width;
    this.handle ??= open(this.path, 'r');
    const fh = await this.handle;
    // One read per row band: the columns of consecutive rows are not contiguous, the rows are.
    const rowBytes = size * 2;
    const first = row0 * rowBytes + col0 * 2;
    const span = (height - 1) * rowBytes + width * 2;
    const buffer = Buffer.allocUnsafe(span);
    const { bytesRead } = await fh.read(buffer, 0, span, first);
    if (bytesRead !== span) throw new Error(`short read in ${this.path}`);
    this.bytesRead += bytesRead;
    const out = new Float32Array(width * height);
    for (let r = 0; r < height; r++) {
      for (let c = 0; c < width; c++) {
        const v = buffer.readInt16BE(r * rowBytes + c * 2);
        out[r * width + c] = v === HGT_VOID ? NaN : v;
      }
    }
    return out;
  }

  async close(): Promise<void> {
    const h = this.handle;
    this.handle = null;
    if (h) await (await h).close();
  }
}

/** An elevation source over one SRTM .hgt file (corner from the name, resolution from the size). */
export async function openHgt(path: string, attribution: DemAttribution = SRTM_ATTRIBUTION): Promise<RasterElevationSource> {
  const abs = resolve(path);
  const sw = parseHgtName(abs);
  if (!sw) throw new Error(`cannot place ${abs}: .hgt files must be named like N43E007.hgt`);
  const size = hgtSizeFromBytes((await stat(abs)).size);
  return new RasterElevationSource(new HgtReader(abs, hgtGeoref(sw, size)), { attribution });
}
