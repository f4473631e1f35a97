import { fillVoids } from '../../geometry/terrain/fill-voids.ts';
import { sharedBlockCache, type ByteLru, type CachedBlock } from './byte-lru.ts';
import { lonLatToCrs, type LonLatToCrs } from './crs.ts';
import { EMPTY_WINDOW, RasterWindow, type EdgeAwareWindow, type RasterGeoref } from './raster-window.ts';
import type { DemAttribution, ElevationSource, ReadWindowOptions } from './types.ts';
import type { GeoBox } from '../../frame/geo-box.ts';

const METRES_PER_DEGREE = 111_320;

/**
 * Reads rectangles of raw pixels from one raster (a file, a URL, a zoom level of a tile pyramid).
 * The source above it cuts requests into blocks, fills voids and caches, so a reader only decodes.
 */
export interface PixelReader {
  /** Unique per raster (path or URL, plus level); prefixes cache keys. */
  readonly key: string;
  readonly georef: RasterGeoref;
  /** Natural read unit (a COG tile, a band of .hgt rows, a PNG tile). */
  readonly blockWidth: number;
  readonly blockHeight: number;
  /** Pixels read around a block that has voids, to fill them from real data (0: format has no voids). */
  readonly voidMargin: number;
  /**
   * Pixels [col0, col0+width) × [row0, row0+height), all inside the raster, row-major, in metres
   * with NaN for nodata; null when the data does not exist at all (e.g. a missing PNG tile).
   */
  read(col0: number, row0: number, width: number, height: number, signal?: AbortSignal): Promise<Float32Array | null>;
  close(): Promise<void>;
}

export interface RasterSourceOptions {
  attribution: DemAttribution;
  /** Block cache; the per-thread shared one by default. */
  cache?: ByteLru<CachedBlock>;
}

/**
 * An elevation source over one raster. Windows are assembled from fixed blocks, so the value of a
 * pixel never depends on which tile asked for it: neighbouring tiles sample identical data at
 * their shared edge, and void filling (done per block with a fixed margin) is deterministic.
 */
export class RasterElevationSource implements ElevationSource {
  readonly id: string;
  readonly bounds: GeoBox;
  readonly resolutionDegrees: number;
  readonly resolutionMetres: number;
  readonly attribution: DemAttribution;
  private readonly toCrs: LonLatToCrs;
  private readonly cache: ByteLru<CachedBlock>;

  constructor(
    readonly reader: PixelReader,
    options: RasterSourceOptions,
  ) {
    const g = reader.georef;
    this.id = reader.key;
    this.attribution = options.attribution;
    this.cache = options.cache ?? sharedBlockCache;
    this.toCrs = lonLatToCrs(g.crs);
    this.bounds = rasterLonLatBounds(g, this.toCrs);
    const midLat = (this.bounds.south + this.bounds.north) / 2;
    this.resolutionMetres = this.resolutionMetresAt(midLat);
    this.resolutionDegrees = /\+proj=longlat\b/.test(g.crs) ? Math.abs(g.dy) : this.resolutionMetres / METRES_PER_DEGREE;
  }

  resolutionMetresAt(lat: number): number {
    const g = this.reader.georef;
    const cos = Math.cos((lat * Math.PI) / 180);
    if (/\+proj=longlat\b/.test(g.crs)) return Math.min(Math.abs(g.dy), Math.abs(g.dx) * cos) * METRES_PER_DEGREE;
    // Projected CRS in metres; Web Mercator's metres shrink by cos(latitude) on the ground.
    return Math.min(Math.abs(g.dx), Math.abs(g.dy)) * (/\+proj=merc\b/.test(g.crs) ? cos : 1);
  }

  get attributions(): readonly DemAttribution[] {
    return [this.attribution];
  }

  async readWindow(bbox: GeoBox, options: ReadWindowOptions = {}): Promise<EdgeAwareWindow> {
    const g = this.reader.georef;
    const range = pixelRange(g, this.toCrs, bbox);
    if (!range) return EMPTY_WINDOW;
    const { c0, r0, c1, r1 } = range;
    const width = c1 - c0 + 1,
      height = r1 - r0 + 1;
    const data = new Float32Array(width * height).fill(NaN);
    const bw = this.reader.blockWidth,
      bh = this.reader.blockHeight;
    const jobs: Promise<void>[] = [];
    let anyData = false;
    for (let by = Math.floor(r0 / bh); by <= Math.floor(r1 / bh); by++) {
      for (let bx = Math.floor(c0 / bw); bx <= Math.floor(c1 / bw); bx++) {
        jobs.push(
          this.block(bx, by, options.signal).then((block) => {
            if (!block) return;
            anyData = true;
            copyRect(block, bx * bw, by * bh, Math.min(bw, g.width - bx * bw), data, c0, r0, width, height);
          }),
        );
      }
    }
    await Promise.all(jobs);
    if (!anyData) return EMPTY_WINDOW;
    return new RasterWindow(g, this.toCrs, c0, r0, width, height, data, [this.attribution]);
  }

  async sampleLonLat(lon: number, lat: number): Promise<number> {
    const window = await this.readWindow({ west: lon, east: lon, south: lat, north: lat });
    return window.sample(lon, lat);
  }

  close(): Promise<void> {
    return this.reader.close();
  }

  /**
   * Block (bx, by), decoded and void-filled. Decoded blocks are cached as read; a block with
   * voids is filled from the decoded blocks around it (within `voidMargin` pixels) and cached once
   * more. So every block is fetched and decoded once while it stays cached, and a pixel's filled
   * value depends only on the file, never on which tile asked.
   */
  private async block(bx: number, by: number, signal?: AbortSignal): Promise<CachedBlock> {
    const raw = await this.rawBlock(bx, by, signal);
    if (!raw || !raw.some(Number.isNaN)) return raw;
    return this.cache.get(`${this.reader.key}#filled:${bx},${by}`, () => this.fillBlock(bx, by, raw, signal));
  }

  private rawBlock(bx: number, by: number, signal?: AbortSignal): Promise<CachedBlock> {
    const { georef: g, blockWidth: bw, blockHeight: bh } = this.reader;
    return this.cache.get(`${this.reader.key}#${bx},${by}`, () => {
      const c0 = bx * bw,
        r0 = by * bh;
      return this.reader.read(c0, r0, Math.min(bw, g.width - c0), Math.min(bh, g.height - r0), signal);
    });
  }

  /** Cells with no valid data anywhere in the context stay NaN, so that a mosaic can fall through to the next source. */
  private async fillBlock(bx: number, by: number, raw: Float32Array, signal?: AbortSignal): Promise<Float32Array> {
    const { georef: g, blockWidth: bw, blockHeight: bh, voidMargin: m } = this.reader;
    const c0 = bx * bw,
      r0 = by * bh;
    const w = Math.min(bw, g.width - c0),
      h = Math.min(bh, g.height - r0);
    // Context: the voids' bounding box grown by the margin (not the whole block), so an isolated
    // void far from the block's edge needs no neighbouring block.
    let vc0 = Infinity,
      vr0 = Infinity,
      vc1 = -Infinity,
      vr1 = -Infinity;
    for (let k = 0; k < raw.length; k++) {
      if (!Number.isNaN(raw[k])) continue;
      const c = k % w,
        r = (k - c) / w;
      vc0 = Math.min(vc0, c);
      vc1 = Math.max(vc1, c);
      vr0 = Math.min(vr0, r);
      vr1 = Math.max(vr1, r);
    }
    const pc0 = Math.max(0, c0 + vc0 - m),
      pr0 = Math.max(0, r0 + vr0 - m);
    const pc1 = Math.min(g.width - 1, c0 + vc1 + m),
      pr1 = Math.min(g.height - 1, r0 + vr1 + m);
    const pw = pc1 - pc0 + 1,
      ph = pr1 - pr0 + 1;
    const context = new Float32Array(pw * ph).fill(NaN);
    const jobs: Promise<void>[] = [];
    for (let nby = Math.floor(pr0 / bh); nby <= Math.floor(pr1 / bh); nby++) {
      for (let nbx = Math.floor(pc0 / bw); nbx <= Math.floor(pc1 / bw); nbx++) {
        const neighbour = nbx === bx && nby === by ? Promise.resolve(raw) : this.rawBlock(nbx, nby, signal);
        jobs.push(
          neighbour.then((block) => {
            if (block) copyRect(block, nbx * bw, nby * bh, Math.min(bw, g.width - nbx * bw), context, pc0, pr0, pw, ph);
          }),
        );
      }
    }
    await Promise.all(jobs);
    fillVoids(context, pw, ph);
    const out = raw.slice();
    copyRect(context, pc0, pr0, pw, out, c0, r0, w, h);
    return out;
  }
}

/** Copies the overlap of a block (top-left pixel (bc0, br0), `bWidth` wide) into a grid whose top-left pixel is (tc0, tr0). */
export function copyRect(
  block: Float32Array,
  bc0: number,
  br0: number,
  bWidth: number,
  target: Float32Array,
  tc0: number,
  tr0: number,
  tWidth: number,
  tHeight: number,
): void {
  const bHeight = block.length / bWidth;
  const from = Math.max(bc0, tc0),
    to = Math.min(bc0 + bWidth, tc0 + tWidth);
  if (to <= from) return;
  for (let r = Math.max(br0, tr0); r < Math.min(br0 + bHeight, tr0 + tHeight); r++) {
    const src = (r - br0) * bWidth + (from - bc0);
    target.set(block.subarray(src, src + (to - from)), (r - tr0) * tWidth + (from - tc0));
  }
}

/** Pixel range needed for bilinear sampling anywhere in `bbox`, clamped to the raster; null when disjoint. */
export function pixelRange(g: RasterGeoref, toCrs: LonLatToCrs, bbox: GeoBox): { c0: number; r0: number; c1: number; r1: number } | null {
  let minC = Infinity,
    maxC = -Infinity,
    minR = Infinity,
    maxR = -Infinity;
  const steps = 8; // edges of a lon/lat box are curves in a projected CRS
  for (let s = 0; s <= steps; s++) {
    const t = s / steps;
    const lon = bbox.west + t * (bbox.east - bbox.west),
      lat = bbox.south + t * (bbox.north - bbox.south);
    for (const [x, y] of [toCrs.forward(lon, bbox.south), toCrs.forward(lon, bbox.north), toCrs.forward(bbox.west, lat), toCrs.forward(bbox.east, lat)]) {
      const fc = (x - g.x0) / g.dx,
        fr = (y - g.y0) / g.dy;
      minC = Math.min(minC, fc);
      maxC = Math.max(maxC, fc);
      minR = Math.min(minR, fr);
      maxR = Math.max(maxR, fr);
    }
  }
  if (!(maxC >= -0.5 && minC <= g.width - 0.5 && maxR >= -0.5 && minR <= g.height - 0.5)) return null;
  return {
    c0: Math.max(0, Math.floor(minC) - 1),
    r0: Math.max(0, Math.floor(minR) - 1),
    c1: Math.min(g.width - 1, Math.ceil(maxC) + 1),
    r1: Math.min(g.height - 1, Math.ceil(maxR) + 1),
  };
}

/** Lon/lat box of the raster's pixel-area extent (pixel centres ± half a pixel). */
function rasterLonLatBounds(g: RasterGeoref, toCrs: LonLatToCrs): GeoBox {
  const xs = [g.x0 - g.dx / 2, g.x0 + (g.width - 0.5) * g.dx];
  const ys = [g.y0 - g.dy / 2, g.y0 + (g.height - 0.5) * g.dy];
  let west = Infinity,
    east = -Infinity,
    south = Infinity,
    north = -Infinity;
  const steps = 8;
  for (let s = 0; s <= steps; s++) {
    const t = s / steps;
    const x = xs[0] + t * (xs[1] - xs[0]),
      y = ys[0] + t * (ys[1] - ys[0]);
    for (const [px, py] of [
      [x, ys[0]],
      [x, ys[1]],
      [xs[0], y],
      [xs[1], y],
    ]) {
      const [lon, lat] = toCrs.inverse(px, py);
      west = Math.min(west, lon);
      east = Math.max(east, lon);
      south = Math.min(south, lat);
      north = Math.max(north, lat);
    }
  }
  return { west, south, east, north };
}
