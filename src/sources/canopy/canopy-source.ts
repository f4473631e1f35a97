import type { CanopyDetectTuning } from '../../geometry/canopy/types.ts';
import type { Attribution } from '../attributions.ts';
import { uniqueAttributions } from '../dem/attribution.ts';
import { sharedBlockCache, type ByteLru, type CachedBlock } from '../dem/byte-lru.ts';
import { intersects } from '../dem/mosaic.ts';
import type { PixelReader } from '../dem/raster-source.ts';
import type { GeoBox } from '../../frame/geo-box.ts';
import { Lattice, type LatticeMember } from './lattice.ts';
import type { CanopySource, CanopyWindow } from './types.ts';

export interface CanopyMemberInput {
  reader: PixelReader;
  scale: number;
  offset: number;
  attribution: Attribution;
  /** Detection tuning of the raster's configuration entry (a lattice takes its first raster's). */
  detection?: CanopyDetectTuning;
}

/**
 * Canopy rasters in priority order, grouped into lattices (rasters on one pixel grid read as one,
 * so detection crosses file edges). Rasters on different grids stay apart: each is detected on
 * its own grid, and where two overlap the earlier one's trees are kept (features/instances/canopy.ts).
 */
class CanopyMosaic implements CanopySource {
  readonly id: string;
  readonly bounds: GeoBox;
  readonly maxCellSize: number;
  readonly attributions: readonly Attribution[];
  readonly detections: readonly CanopyDetectTuning[];

  constructor(
    private readonly lattices: Lattice[],
    private readonly memberBounds: Map<LatticeMember, GeoBox>,
    private readonly cache: ByteLru<CachedBlock>,
  ) {
    const members = lattices.flatMap((l) => l.members);
    this.id = `canopy:[${members.map((m) => m.reader.key).join(',')}]`;
    this.bounds = [...memberBounds.values()].reduce((a, b) => ({
      west: Math.min(a.west, b.west),
      south: Math.min(a.south, b.south),
      east: Math.max(a.east, b.east),
      north: Math.max(a.north, b.north),
    }));
    this.maxCellSize = Math.max(...lattices.map((l) => l.cellSize));
    this.attributions = uniqueAttributions(members.map((m) => m.attribution));
    this.detections = lattices.map((l) => l.detection);
  }

  async readWindows(bbox: GeoBox, signal?: AbortSignal): Promise<CanopyWindow[]> {
    const touching = this.lattices.filter((l) => l.members.some((m) => intersects(this.memberBounds.get(m)!, bbox)));
    const windows = await Promise.all(touching.map((l) => l.window(bbox, this.cache, signal)));
    return windows.filter((w): w is CanopyWindow => w !== null);
  }

  async close(): Promise<void> {
    await Promise.all(this.lattices.flatMap((l) => l.members.map((m) => m.reader.close())));
  }
}

/** A canopy source over opened rasters (listed first = wins where they overlap). */
export function openCanopySource(inputs: readonly CanopyMemberInput[], cache: ByteLru<CachedBlock> = sharedBlockCache): CanopySource {
  const lattices: Lattice[] = [];
  const bounds = new Map<LatticeMember, GeoBox>();
  for (const input of inputs) {
    const box = rasterBounds(input.reader);
    let lattice = lattices.find((l) => l.place(input.reader));
    if (!lattice) {
      lattice = new Lattice(input.reader.key, input.reader.georef.crs, input.reader, (box.south + box.north) / 2, input.detection ?? {});
      lattices.push(lattice);
    }
    const member = { ...input, detection: input.detection ?? {}, ...lattice.place(input.reader)! };
    lattice.members.push(member);
    bounds.set(member, box);
  }
  return new CanopyMosaic(lattices, bounds, cache);
}

/** Lon/lat box of a raster's pixel-area extent (edges sampled: they are curves in a projected CRS). */
function rasterBounds(reader: PixelReader): GeoBox {
  const g = reader.georef;
  const toCrs = new Lattice('probe', g.crs, reader, 0, {}).toCrs;
  const xs = [g.x0 - g.dx / 2, g.x0 + (g.width - 0.5) * g.dx],
    ys = [g.y0 - g.dy / 2, g.y0 + (g.height - 0.5) * g.dy];
  let west = Infinity,
    east = -Infinity,
    south = Infinity,
    north = -Infinity;
  for (let s = 0; s <= 8; s++) {
    const t = s / 8,
      x = xs[0] + t * (xs[1] - xs[0]),
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
