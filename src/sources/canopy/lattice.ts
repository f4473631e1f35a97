import type { CanopyDetectTuning } from '../../geometry/canopy/types.ts';
import type { Attribution } from '../attributions.ts';
import type { ByteLru, CachedBlock } from '../dem/byte-lru.ts';
import { lonLatToCrs, type LonLatToCrs } from '../dem/crs.ts';
import { pixelRange, type PixelReader } from '../dem/raster-source.ts';
import type { GeoBox } from '../../frame/geo-box.ts';
import type { CanopyWindow } from './types.ts';

/** One configured raster of a lattice: its reader, value scaling and place in the lattice. */
export interface LatticeMember {
  reader: PixelReader;
  /** Stored value × scale + offset = metres. */
  scale: number;
  offset: number;
  attribution: Attribution;
  /** Lattice column and row of the raster's pixel (0, 0). */
  dc: number;
  dr: number;
}

/**
 * Rasters that share one pixel lattice (same CRS, same pixel size, origins a whole number of
 * pixels apart) — the tiles of a tiled CHM product — read as one raster, so detection runs across
 * file edges. The first listed raster holding data at a cell gives its value.
 */
export class Lattice {
  readonly members: LatticeMember[] = [];
  readonly toCrs: LonLatToCrs;
  readonly x0: number;
  readonly y0: number;
  readonly dx: number;
  readonly dy: number;
  readonly cellSize: number;

  constructor(
    readonly id: string,
    readonly crs: string,
    first: PixelReader,
    midLat: number,
    readonly detection: CanopyDetectTuning,
  ) {
    const g = first.georef;
    if (/\+proj=longlat\b/.test(crs))
      throw new Error(
        `canopy raster ${first.key} is in geographic degrees; tree detection needs a projected CRS in metres (warp it, e.g. to UTM, with gdalwarp)`,
      );
    this.toCrs = lonLatToCrs(crs);
    this.x0 = g.x0;
    this.y0 = g.y0;
    this.dx = g.dx;
    this.dy = g.dy;
    // Web Mercator metres shrink by cos(latitude) on the ground; one value per lattice keeps every tile's windows alike
    const k = /\+proj=merc\b/.test(crs) ? Math.cos((midLat * Math.PI) / 180) : 1;
    this.cellSize = Math.sqrt(Math.abs(g.dx * g.dy)) * k;
  }

  /** Whether a raster lies on this lattice; its pixel (0, 0)'s lattice position when it does. */
  place(reader: PixelReader): { dc: number; dr: number } | null {
    const g = reader.georef;
    if (g.crs !== this.crs || Math.abs(g.dx - this.dx) > 1e-9 * Math.abs(this.dx) || Math.abs(g.dy - this.dy) > 1e-9 * Math.abs(this.dy)) return null;
    const fc = (g.x0 - this.x0) / this.dx,
      fr = (g.y0 - this.y0) / this.dy;
    const dc = Math.round(fc),
      dr = Math.round(fr);
    return Math.abs(fc - dc) < 1e-3 && Math.abs(fr - dr) < 1e-3 ? { dc, dr } : null;
  }

  /** The lattice rectangle covering `bbox`, decoded; null when no member has a cell there. */
  async window(bbox: GeoBox, cache: ByteLru<CachedBlock>, signal?: AbortSignal): Promise<CanopyWindow | null> {
    const parts: { m: LatticeMember; c0: number; r0: number; c1: number; r1: number }[] = [];
    let c0 = Infinity,
      r0 = Infinity,
      c1 = -Infinity,
      r1 = -Infinity;
    for (const m of this.members) {
      const r = pixelRange(m.reader.georef, this.toCrs, bbox);
      if (!r) continue;
      parts.push({ m, ...r });
      c0 = Math.min(c0, r.c0 + m.dc);
      r0 = Math.min(r0, r.r0 + m.dr);
      c1 = Math.max(c1, r.c1 + m.dc);
      r1 = Math.max(r1, r.r1 + m.dr);
    }
    if (parts.length === 0) return null;
    const width = c1 - c0 + 1,
      height = r1 - r0 + 1;
    const data = new Float32Array(width * height).fill(NaN);
    const blocks = await Promise.all(parts.map((p) => readBlocks(p.m, p, cache, signal)));
    let any = false;
    const used: Attribution[] = [];
    parts.forEach((p, n) => {
      let filled = false;
      for (const b of blocks[n]) filled = copyMissing(b.data, b.c0 + p.m.dc, b.r0 + p.m.dr, b.width, data, c0, r0, width, height) || filled;
      if (filled && !used.some((a) => a.id === p.m.attribution.id)) used.push(p.m.attribution);
      any ||= filled;
    });
    if (!any) return null;
    return new LatticeWindow(this, data, width, height, c0, r0, used);
  }
}

interface Block {
  data: Float32Array;
  c0: number;
  r0: number;
  width: number;
}

/** The member's decoded blocks (per-thread cache) touching its pixel range, in metres. */
async function readBlocks(
  m: LatticeMember,
  r: { c0: number; r0: number; c1: number; r1: number },
  cache: ByteLru<CachedBlock>,
  signal?: AbortSignal,
): Promise<Block[]> {
  const { reader } = m,
    g = reader.georef,
    bw = reader.blockWidth,
    bh = reader.blockHeight;
  const jobs: Promise<Block | null>[] = [];
  for (let by = Math.floor(r.r0 / bh); by <= Math.floor(r.r1 / bh); by++) {
    for (let bx = Math.floor(r.c0 / bw); bx <= Math.floor(r.c1 / bw); bx++) {
      const bc0 = bx * bw,
        br0 = by * bh,
        w = Math.min(bw, g.width - bc0),
        h = Math.min(bh, g.height - br0);
      // 'chm:' keeps these apart from an elevation source over the same file (different scaling, no void filling)
      jobs.push(
        cache
          .get(`chm:${reader.key}#${bx},${by}`, async () => {
            const raw = await reader.read(bc0, br0, w, h, signal);
            if (raw && (m.scale !== 1 || m.offset !== 0)) for (let k = 0; k < raw.length; k++) raw[k] = raw[k] * m.scale + m.offset;
            return raw;
          })
          .then((data) => (data ? { data, c0: bc0, r0: br0, width: w } : null)),
      );
    }
  }
  return (await Promise.all(jobs)).filter((b): b is Block => b !== null);
}

/** Copies a block's cells with data into the target's cells without; whether any was copied. */
function copyMissing(src: Float32Array, sc0: number, sr0: number, sw: number, dst: Float32Array, tc0: number, tr0: number, tw: number, th: number): boolean {
  const sh = src.length / sw;
  const cFrom = Math.max(sc0, tc0),
    cTo = Math.min(sc0 + sw, tc0 + tw);
  let any = false;
  for (let r = Math.max(sr0, tr0); r < Math.min(sr0 + sh, tr0 + th); r++) {
    for (let c = cFrom; c < cTo; c++) {
      const v = src[(r - sr0) * sw + (c - sc0)];
      const t = (r - tr0) * tw + (c - tc0);
      if (!Number.isNaN(v) && Number.isNaN(dst[t])) {
        dst[t] = v;
        any = true;
      }
    }
  }
  return any;
}

class LatticeWindow implements CanopyWindow {
  readonly cellSize: number;
  readonly latticeId: string;
  readonly detection: CanopyDetectTuning;

  constructor(
    private readonly lattice: Lattice,
    readonly data: Float32Array,
    readonly width: number,
    readonly height: number,
    readonly col0: number,
    readonly row0: number,
    readonly attributions: readonly Attribution[],
  ) {
    this.cellSize = lattice.cellSize;
    this.latticeId = lattice.id;
    this.detection = lattice.detection;
  }

  lonLatOfLattice(col: number, row: number): [number, number] {
    const L = this.lattice;
    return L.toCrs.inverse(L.x0 + col * L.dx, L.y0 + row * L.dy);
  }

  valueAt(lon: number, lat: number): number {
    const L = this.lattice;
    const [x, y] = L.toCrs.forward(lon, lat);
    const c = Math.round((x - L.x0) / L.dx) - this.col0,
      r = Math.round((y - L.y0) / L.dy) - this.row0;
    return c >= 0 && r >= 0 && c < this.width && r < this.height ? this.data[r * this.width + c] : NaN;
  }
}
