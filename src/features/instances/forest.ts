import { CELL_DEGREES } from '../../frame/stable-frame.ts';
import { projectFlat } from '../../frame/local-frame.ts';
import { validFootprints } from '../../geometry/planar/footprint-repair.ts';
import { NOMINAL_HEIGHT } from '../../geometry/instances/catalogue.ts';
import { fillRuleOf } from '../../geometry/trees/fill-areas.ts';
import { FILL_MARGIN, forestFill, type FillArea, type FillSite } from '../../geometry/trees/forest-fill.ts';
import { fineUnit, hashInts, unit } from '../../geometry/trees/hash.ts';
import { parseTreeKind } from '../../geometry/trees/tags/leaf.ts';
import { ditherUnit, proceduralRank } from '../../geometry/trees/tree-cap.ts';
import { allometryFor } from '../../geometry/trees/tree-size.ts';
import { seaAreas } from '../../geometry/surfaces/sea/index.ts';
import { PointBlocker } from '../../geometry/trees/point-index.ts';
import { tileCoastlines } from '../surfaces/coastlines.ts';
import type { InstanceTile, Placed } from './context.ts';
import type { Site } from './site.ts';
import { round, SHRUB_SIZE } from './tree-nodes.ts';

/** Procedural plants vary in size by ±25% around their kind's default (hash of the cell). */
const SIZE_SPREAD = 0.25;
/** The tile's square is searched this far beyond its sides: the fixed frames are slightly turned against the request's. */
const BOX_PAD = 5;

/**
 * Procedural forest fill for one tile (treeSource standard): the fill areas the tile reads, planted
 * on the global grid of each fixed 0.05° frame the tile touches (geometry/trees/forest-fill.ts),
 * kept off buildings, roads, hard ground, water, the sea and surveyed trees (site.ts), and returned where the
 * tile owns the plant. A plant must also stand FILL_MARGIN inside its frame's cell, so two frames'
 * grids never put plants closer than the minimum spacing at their seam.
 */
export function tileForest(t: InstanceTile): Placed[] {
  const areas = t.features.filter((f) => f.kind === 'area' && f.polygons && fillRuleOf(f.tags));
  if (areas.length === 0) return [];
  const b = t.tile.bbox;
  const corners = [
    [b.minX - BOX_PAD, b.minY - BOX_PAD],
    [b.maxX + BOX_PAD, b.minY - BOX_PAD],
    [b.maxX + BOX_PAD, b.maxY + BOX_PAD],
    [b.minX - BOX_PAD, b.maxY + BOX_PAD],
  ].map(([x, y]) => t.tile.frame.toLonLat(x, y));
  const lons = corners.map((c) => c[0]),
    lats = corners.map((c) => c[1]);
  const out: Placed[] = [];
  for (let i = Math.floor(Math.min(...lons) / CELL_DEGREES); i <= Math.floor(Math.max(...lons) / CELL_DEGREES); i++) {
    for (let j = Math.floor(Math.min(...lats) / CELL_DEGREES); j <= Math.floor(Math.max(...lats) / CELL_DEGREES); j++) {
      const site = t.siteAt((i + 0.5) * CELL_DEGREES, (j + 0.5) * CELL_DEGREES);
      out.push(
        ...fillSite(
          t,
          site,
          corners,
          areas.map((f) => ({
            id: f.id,
            rule: fillRuleOf(f.tags)!,
            footprints: f.polygons!.flatMap((rings) =>
              validFootprints({ outer: projectFlat(site.frame, rings[0]), holes: rings.slice(1).map((r) => projectFlat(site.frame, r)) }),
            ),
            ...parseTreeKind(f.tags),
          })),
        ),
      );
    }
  }
  return out;
}

function fillSite(t: InstanceTile, site: Site, corners: [number, number][], areas: FillArea[]): Placed[] {
  let minX = Infinity,
    minY = Infinity,
    maxX = -Infinity,
    maxY = -Infinity;
  for (const [lon, lat] of corners) {
    const [x, y] = site.frame.toLocal(lon, lat);
    minX = Math.min(minX, x);
    maxX = Math.max(maxX, x);
    minY = Math.min(minY, y);
    maxY = Math.max(maxY, y);
  }
  const lonLat = new Map<string, [number, number]>();
  // the sea (from coastlines; mapped water is hard ground in site.ts): a wood mapped into it is not planted there
  const coast = tileCoastlines(t.tile, site.frame);
  const sea = coast.length ? seaAreas(coast, { outer: [minX, minY, maxX, minY, maxX, maxY, minX, maxY], holes: [] }) : [];
  const inSea = sea.length ? new PointBlocker({ footprints: sea.flatMap((a) => a.footprints), corridors: [], discs: [] }) : null;
  const sites = forestFill({ minX, minY, maxX, maxY }, areas, {
    salt: site.salt,
    blocked(x, y) {
      const ll = site.frame.toLonLat(x, y);
      if (!insideCell(ll, site)) return true;
      if (site.fill().blocked(x, y) || inSea?.blocked(x, y)) return true;
      lonLat.set(`${x},${y}`, ll);
      return false;
    },
  });
  const out: Placed[] = [];
  for (const s of sites) {
    const [lon, lat] = lonLat.get(`${s.x},${s.y}`)!;
    const [x, y] = t.tile.frame.toLocal(lon, lat);
    if (!t.takes(x, y)) continue;
    const h = hashInts(s.i, s.j, site.salt, 11);
    const plant = s.area.rule.plant;
    const k = allometryFor(s.area.leafType);
    const base = plant === 'tree' ? { height: k.height, crown: k.crown } : { height: SHRUB_SIZE.height, crown: SHRUB_SIZE.crown };
    const f = 1 + SIZE_SPREAD * (2 * unit(h) - 1);
    const descriptor: Record<string, unknown> = {
      type: plant,
      id: fillId(site, s),
      source: 'procedural',
      fill: s.area.rule.kind,
      area: s.area.id,
      height: round(base.height * f),
      crownDiameter: round(base.crown * f),
      heightSource: 'default',
    };
    if (s.area.leafType) descriptor.leafType = s.area.leafType;
    if (s.area.leafCycle) descriptor.leafCycle = s.area.leafCycle;
    const node = {
      type: plant,
      x,
      y,
      z: t.groundAt(x, y),
      rotation: unit(hashInts(h, 1)) * 2 * Math.PI,
      scale: (base.height * f) / NOMINAL_HEIGHT[plant],
      descriptor,
    };
    out.push({ node, rank: proceduralRank(ditherUnit(s.i, s.j, fineUnit(hashInts(h, 2), hashInts(h, 3)))) });
  }
  return out;
}

/**
 * A procedural plant's id: its fixed frame's 0.05° cell and its cell on that frame's grid
 * (`fill/<lon cell>,<lat cell>/<i>,<j>`, orchards on their own grid `…/rows/<i>,<j>`). The grids hold
 * at most one plant per cell and do not depend on the request, so the same plant has the same id
 * in every request and tiling (docs/trees.md "Ids").
 */
export function fillId(site: Pick<Site, 'cell'>, s: Pick<FillSite, 'i' | 'j' | 'area'>): string {
  return `fill/${site.cell[0]},${site.cell[1]}/${s.area.rule.rows ? 'rows/' : ''}${s.i},${s.j}`;
}

/** In the frame's 0.05° cell and FILL_MARGIN metres away from its sides (seams between frames). */
function insideCell([lon, lat]: [number, number], site: Site): boolean {
  const mLat = 110574,
    mLon = 111320 * Math.cos((lat * Math.PI) / 180);
  const dx = Math.min(lon - site.lon0, site.lon0 + CELL_DEGREES - lon) * mLon;
  const dy = Math.min(lat - site.lat0, site.lat0 + CELL_DEGREES - lat) * mLat;
  return dx >= FILL_MARGIN && dy >= FILL_MARGIN;
}
