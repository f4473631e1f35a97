import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { genericDemAttribution } from './attribution.ts';
import { resolveCrs } from './crs.ts';
import { fetchBytes, type TransferStats } from './http.ts';
import { RasterElevationSource, type PixelReader } from './raster-source.ts';
import type { EdgeAwareWindow, RasterGeoref } from './raster-window.ts';
import type { DemAttribution, ElevationSource, ReadWindowOptions } from './types.ts';
import type { GeoBox } from '../../frame/geo-box.ts';

/** How heights are packed into RGB: Terrarium (Mapzen/AWS) or Mapbox Terrain-RGB. */
export type PngElevationEncoding = 'terrarium' | 'terrain-rgb';

export interface PngPyramidOptions {
  encoding: PngElevationEncoding;
  /**
   * Tile location: an http(s) URL template or a local path template with `{z}`, `{x}`, `{y}`
   * (XYZ scheme, y from the north), or a directory holding `{z}/{x}/{y}.png`.
   */
  tiles: string;
  /** Deepest zoom level available. */
  maxZoom: number;
  minZoom?: number;
  /** Pixels per tile side. */
  tileSize?: number;
  headers?: Record<string, string>;
  attribution?: DemAttribution;
}

const HALF_WORLD = 20037508.342789244; // Web Mercator half circumference, metres
const MAX_LAT = 85.0511287798066;

/** Metres to a pixel value, per encoding. */
export function decodeElevationPixel(encoding: PngElevationEncoding, r: number, g: number, b: number): number {
  return encoding === 'terrarium' ? r * 256 + g + b / 256 - 32768 : -10000 + (r * 65536 + g * 256 + b) * 0.1;
}

/** Pixel value (r, g, b) that encodes `metres` (inverse of `decodeElevationPixel`, for writing fixtures). */
export function encodeElevationPixel(encoding: PngElevationEncoding, metres: number): [number, number, number] {
  if (encoding === 'terrarium') {
    const v = metres + 32768;
    const r = Math.floor(v / 256),
      g = Math.floor(v - r * 256),
      b = Math.round((v - r * 256 - g) * 256);
    return b === 256 ? [r, g + 1, 0] : [r, g, b];
  }
  const v = Math.round((metres + 10000) * 10);
  return [(v >> 16) & 255, (v >> 8) & 255, v & 255];
}

/** The global Web Mercator raster of zoom level z, pixel-is-area. */
export function pyramidGeoref(z: number, tileSize: number): RasterGeoref {
  const size = tileSize * 2 ** z;
  const step = (2 * HALF_WORLD) / size;
  return { crs: resolveCrs(3857), width: size, height: size, x0: -HALF_WORLD + step / 2, y0: HALF_WORLD - step / 2, dx: step, dy: -step };
}

/** One zoom level of a PNG pyramid as a pixel reader; a block is one tile. */
class PngLevelReader implements PixelReader {
  readonly georef: RasterGeoref;
  readonly voidMargin = 0;

  constructor(
    private readonly options: Required<Pick<PngPyramidOptions, 'encoding' | 'tiles' | 'tileSize'>> & PngPyramidOptions,
    readonly z: number,
    private readonly stats: TransferStats,
  ) {
    this.georef = pyramidGeoref(z, options.tileSize);
  }

  get key(): string {
    return `png:${this.options.tiles}@${this.z}`;
  }

  get blockWidth(): number {
    return this.options.tileSize;
  }

  get blockHeight(): number {
    return this.options.tileSize;
  }

  async read(col0: number, row0: number, width: number, height: number, signal?: AbortSignal): Promise<Float32Array | null> {
    const ts = this.options.tileSize;
    const out = new Float32Array(width * height).fill(NaN);
    let any = false;
    for (let ty = Math.floor(row0 / ts); ty <= Math.floor((row0 + height - 1) / ts); ty++) {
      for (let tx = Math.floor(col0 / ts); tx <= Math.floor((col0 + width - 1) / ts); tx++) {
        const tile = await this.tile(tx, ty, signal);
        if (!tile) continue;
        any = true;
        for (let r = Math.max(row0, ty * ts); r < Math.min(row0 + height, (ty + 1) * ts); r++) {
          for (let c = Math.max(col0, tx * ts); c < Math.min(col0 + width, (tx + 1) * ts); c++) {
            out[(r - row0) * width + (c - col0)] = tile[(r - ty * ts) * ts + (c - tx * ts)];
          }
        }
      }
    }
    return any ? out : null;
  }

  /** Decoded heights of tile (x, y), null when it does not exist. */
  private async tile(x: number, y: number, signal?: AbortSignal): Promise<Float32Array | null> {
    const location = tileLocation(this.options.tiles, this.z, x, y);
    const bytes = /^https?:\/\//i.test(location)
      ? await fetchBytes(location, { headers: this.options.headers, signal, stats: this.stats })
      : await readFile(location).catch((e: NodeJS.ErrnoException) => {
          if (e.code === 'ENOENT') return null;
          throw e;
        });
    if (!bytes) return null;
    // Loaded at the first tile, not at the top: sharp (libvips and its bindings, ~30 MB resident) is
    // only needed by installs with PNG elevation tiles.
    const { default: sharp } = await import('sharp');
    const { data, info } = await sharp(bytes).raw().toBuffer({ resolveWithObject: true });
    const ts = this.options.tileSize;
    if (info.width !== ts || info.height !== ts) throw new Error(`${location}: expected a ${ts}×${ts} tile, got ${info.width}×${info.height}`);
    const ch = info.channels;
    const out = new Float32Array(ts * ts);
    for (let k = 0; k < out.length; k++) {
      const p = k * ch;
      const transparent = ch === 4 && data[p + 3] === 0;
      out[k] = transparent ? NaN : decodeElevationPixel(this.options.encoding, data[p], data[p + 1], data[p + 2]);
    }
    return out;
  }

  async close(): Promise<void> {}
}

/** `{z}/{x}/{y}` substituted; a bare directory gets `/{z}/{x}/{y}.png` appended. */
export function tileLocation(template: string, z: number, x: number, y: number): string {
  const t = template.includes('{z}') ? template : join(template, '{z}', '{x}', '{y}.png');
  return t.replaceAll('{z}', String(z)).replaceAll('{x}', String(x)).replaceAll('{y}', String(y));
}

/**
 * An elevation source over a Terrarium or Terrain-RGB tile pyramid. Each window is read from one
 * zoom level: the coarsest whose ground pixel is at most the requested resolution (the deepest
 * level when none is requested).
 */
export class PngPyramidSource implements ElevationSource {
  readonly id: string;
  readonly bounds: GeoBox = { west: -180, south: -MAX_LAT, east: 180, north: MAX_LAT };
  readonly attribution: DemAttribution;
  readonly stats: TransferStats = { requests: 0, bytesReceived: 0 };
  private readonly levels = new Map<number, RasterElevationSource>();
  private readonly options: Required<Pick<PngPyramidOptions, 'encoding' | 'tiles' | 'tileSize' | 'minZoom'>> & PngPyramidOptions;

  constructor(options: PngPyramidOptions) {
    this.options = { ...options, tileSize: options.tileSize ?? 256, minZoom: options.minZoom ?? 0 };
    this.id = `png:${options.tiles}`;
    this.attribution = options.attribution ?? genericDemAttribution(this.id, `${options.encoding} tiles`);
  }

  get attributions(): readonly DemAttribution[] {
    return [this.attribution];
  }

  get resolutionMetres(): number {
    return this.resolutionMetresAt(0);
  }

  get resolutionDegrees(): number {
    return 360 / (this.options.tileSize * 2 ** this.options.maxZoom);
  }

  resolutionMetresAt(lat: number, z = this.options.maxZoom): number {
    return ((2 * HALF_WORLD) / (this.options.tileSize * 2 ** z)) * Math.cos((lat * Math.PI) / 180);
  }

  /** Zoom level used for a window at latitude `lat` when `resolutionMetres` detail is wanted. */
  zoomFor(lat: number, resolutionMetres?: number): number {
    const { minZoom, maxZoom } = this.options;
    if (!resolutionMetres) return maxZoom;
    for (let z = minZoom; z < maxZoom; z++) if (this.resolutionMetresAt(lat, z) <= resolutionMetres) return z;
    return maxZoom;
  }

  readWindow(bbox: GeoBox, options: ReadWindowOptions = {}): Promise<EdgeAwareWindow> {
    const z = this.zoomFor((bbox.south + bbox.north) / 2, options.resolutionMetres);
    return this.level(z).readWindow(bbox, options);
  }

  async sampleLonLat(lon: number, lat: number): Promise<number> {
    return (await this.readWindow({ west: lon, east: lon, south: lat, north: lat })).sample(lon, lat);
  }

  async close(): Promise<void> {
    this.levels.clear();
  }

  private level(z: number): RasterElevationSource {
    let source = this.levels.get(z);
    if (!source) {
      source = new RasterElevationSource(new PngLevelReader(this.options, z, this.stats), { attribution: this.attribution });
      this.levels.set(z, source);
    }
    return source;
  }
}
