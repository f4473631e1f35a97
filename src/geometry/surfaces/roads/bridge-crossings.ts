/**
 * What a bridge crosses and how far above it its deck must stay (docs/ground.md "Bridges, tunnels
 * and heights"): roads and railways 4.5 m, paths and waterways 2.5 m, unless the bridge's
 * `min_height` or the crossed road's `maxheight` says otherwise. Only lines on a lower `layer` are
 * crossed (a bridge is on layer 1 unless tagged, anything else on 0): a road on the bridge's own
 * layer is level with it, and one on a higher layer goes over it. Crossings mapped as at grade
 * (`footway=crossing`, `crossing=*`), and meetings at a shared vertex, are not crossings.
 */
import { parseLength } from '../../../osm-model/tag-values/length.ts';
import { parseWidth } from './widths.ts';
import type { RoadWay } from './road-ways.ts';

/** Clearance under a deck over roads and railways, metres (a road's usual legal headroom). */
export const ROAD_CLEARANCE = 4.5;
/** Clearance over paths, waterways and ground with nothing mapped, metres. */
export const PATH_CLEARANCE = 2.5;
/** The crossed span along a bridge is counted at most this long either side of the crossing, metres (near-parallel lines). */
const MAX_HALF_SPAN = 40;

/** A railway or waterway line in the local frame (roads are the road builder's own ways). */
export interface UnderLine {
  id: string;
  tags: Record<string, string>;
  points: number[];
}

/** Something a deck may pass over: its line, width, layer and the clearance it wants. */
export interface Crossed {
  points: readonly number[];
  width: number;
  layer: number;
  clearance: number;
  /** Index of the road way when it is one (its deck is the base when it is a lower bridge). */
  way?: number;
}

const RAILS = new Set(['rail', 'light_rail', 'subway', 'tram', 'narrow_gauge', 'monorail', 'funicular', 'preserved', 'miniature']);
const WATER_WIDTHS: Readonly<Record<string, number>> = { river: 10, canal: 8, stream: 3, ditch: 1.5, drain: 1.5, tidal_channel: 5 };

const isOn = (v: string | undefined) => v !== undefined && v !== 'no' && v !== 'false' && v !== '0';

function layerOf(tags: Readonly<Record<string, string>>, fallback: number): number {
  const v = tags.layer?.trim();
  return v !== undefined && /^[+-]?\d+$/.test(v) ? Number(v) : fallback;
}

/** A railway or waterway as something crossed, or null when it is not on the surface (tunnels, culverts) or not one. */
export function crossedLine(line: UnderLine): Crossed | null {
  const t = line.tags;
  if (isOn(t.tunnel) || t.covered === 'yes' || line.points.length < 4) return null;
  const bridge = isOn(t.bridge);
  if (t.railway !== undefined && RAILS.has(t.railway)) {
    return { points: line.points, width: parseWidth(t.width) ?? 4, layer: layerOf(t, bridge ? 1 : 0), clearance: ROAD_CLEARANCE };
  }
  const water = t.waterway === undefined ? undefined : WATER_WIDTHS[t.waterway];
  if (water !== undefined) return { points: line.points, width: parseWidth(t.width) ?? water, layer: layerOf(t, 0), clearance: PATH_CLEARANCE };
  return null;
}

/** A drawn road way as something crossed (its own clearance: `maxheight` when tagged). */
export function crossedWay(way: RoadWay, index: number): Crossed | null {
  const t = way.input.tags;
  if (t.footway === 'crossing' || t.crossing !== undefined || t.cycleway === 'crossing') return null;
  const { profile } = way;
  const tagged = parseLength(t.maxheight, 50);
  const clearance = tagged ?? (profile.network === 'path' ? PATH_CLEARANCE : ROAD_CLEARANCE);
  const width = profile.width + profile.sidewalks.left + profile.sidewalks.right;
  return { points: way.input.points, width, layer: profile.layer ?? (profile.bridge ? 1 : 0), clearance, way: index };
}

/** The bridge's own `min_height` (the underside above the ground), when tagged: it overrides every clearance. */
export function taggedMinHeight(tags: Readonly<Record<string, string>>): number | null {
  return parseLength(tags.min_height, 100);
}

/** Where a bridge way passes over a crossed line: distances along the way (the crossed span) and the point. */
export interface Crossing {
  from: number;
  to: number;
  x: number;
  y: number;
  crossed: Crossed;
}

/**
 * Crossings of polyline `way` (`along`: distance along it at each vertex) with `crossed`, where
 * the two meet anywhere but at a vertex of both (a shared node is a junction, not a crossing). Each crossing covers the crossed line's width, plus the way's own half width
 * across the slant, along the way.
 */
export function crossingsOf(way: readonly number[], along: readonly number[], halfWidth: number, crossed: Crossed, out: Crossing[]): void {
  const q = crossed.points;
  for (let i = 0; i + 3 < way.length; i += 2) {
    const ax = way[i],
      ay = way[i + 1],
      bx = way[i + 2],
      by = way[i + 3];
    const minX = Math.min(ax, bx),
      maxX = Math.max(ax, bx),
      minY = Math.min(ay, by),
      maxY = Math.max(ay, by);
    const rx = bx - ax,
      ry = by - ay;
    const len = Math.hypot(rx, ry);
    if (!(len > 0)) continue;
    for (let j = 0; j + 3 < q.length; j += 2) {
      const cx = q[j],
        cy = q[j + 1],
        dx = q[j + 2],
        dy = q[j + 3];
      if (Math.max(cx, dx) < minX || Math.min(cx, dx) > maxX || Math.max(cy, dy) < minY || Math.min(cy, dy) > maxY) continue;
      const sx = dx - cx,
        sy = dy - cy;
      const den = rx * sy - ry * sx;
      if (den === 0) continue;
      const t = ((cx - ax) * sy - (cy - ay) * sx) / den,
        u = ((cx - ax) * ry - (cy - ay) * rx) / den;
      const eps = 1e-9;
      if (t < -eps || t > 1 + eps || u < -eps || u > 1 + eps) continue;
      // a vertex of both: the lines meet there (a junction), they do not cross
      if ((t <= eps || t >= 1 - eps) && (u <= eps || u >= 1 - eps)) continue;
      const sin = Math.max(Math.abs(den) / (len * Math.hypot(sx, sy)), 0.2);
      const cos = Math.sqrt(Math.max(0, 1 - sin * sin));
      const half = Math.min((crossed.width / 2 + halfWidth * cos) / sin, MAX_HALF_SPAN);
      const d = along[i / 2] + t * len;
      out.push({ from: d - half, to: d + half, x: ax + t * rx, y: ay + t * ry, crossed });
    }
  }
}
