import { NOMINAL_HEIGHT } from '../../geometry/instances/catalogue.ts';
import { objectHeight } from '../../geometry/instances/tags/height.ts';
import { normaliseAngle } from '../../geometry/instances/tags/direction.ts';
import { featureAnchor } from '../../geometry/anchor.ts';
import type { InstanceTile, Placed } from './context.ts';
import { clipPolylineToPolygon } from '../../geometry/crop/clip-polyline.ts';
import type { CropPolygon } from '../../geometry/crop/crop-polygon.ts';

/** Where a wire hangs on a support without a tagged height: just under the top of the nominal tower or pole. */
const ATTACH_SHARE = 0.9;

/**
 * `power=line|minor_line` as spans: one `wire` node per segment between consecutive supports,
 * standing on the ground at the span's middle, turned along the span, with the span's ends in the
 * descriptor (`from`, `to`: output-frame points at the attachment height — the tagged `height` of the
 * tower or pole at that vertex, else 90% of the nominal tower (lines) or pole (minor lines)), its
 * `length` and the line's `voltage`/`cables` when tagged. A span is returned once, by the tile
 * owning a point of it inside the polygon.
 */
export function tileWires(t: InstanceTile): Placed[] {
  // supports are looked up at the span's vertices themselves: a tile may own a span whose towers it did not read
  const supports = new Map<string, number | null>();
  const supportHeight = (lon: number, lat: number): number | null => {
    const k = supportKey(lon, lat);
    if (!supports.has(k)) {
      const near = t.tile.source.query({ minLon: lon - 1e-7, minLat: lat - 1e-7, maxLon: lon + 1e-7, maxLat: lat + 1e-7 }, ['poi']);
      const tower = near.find(
        (f) => f.kind === 'point' && f.point && supportKey(f.point[0], f.point[1]) === k && (f.tags.power === 'tower' || f.tags.power === 'pole'),
      );
      supports.set(k, tower ? objectHeight(tower.tags) : null);
    }
    return supports.get(k)!;
  };
  const out: Placed[] = [];
  for (const f of t.features) {
    if (f.kind !== 'line' || !f.line || (f.tags.power !== 'line' && f.tags.power !== 'minor_line')) continue;
    const nominal = ATTACH_SHARE * (f.tags.power === 'line' ? NOMINAL_HEIGHT.transmissionTower : NOMINAL_HEIGHT.utilityPole);
    const line = f.line;
    for (let k = 0; k + 3 < line.length; k += 2) {
      const [x0, y0] = t.tile.frame.toLocal(line[k], line[k + 1]);
      const [x1, y1] = t.tile.frame.toLocal(line[k + 2], line[k + 3]);
      const anchor = featureAnchor([[x0, y0, x1, y1]], t.tile.polygon, false);
      if (!anchor || !t.tile.owns(anchor)) continue;
      const z0 = t.groundAt(x0, y0) + (supportHeight(line[k], line[k + 1]) ?? nominal);
      const z1 = t.groundAt(x1, y1) + (supportHeight(line[k + 2], line[k + 3]) ?? nominal);
      // cropScene: the span is cut where it leaves the polygon, the wire's height taken along the chord
      const part = t.tile.crop ? spanInside(x0, y0, x1, y1, anchor, t.tile.crop) : [0, 1];
      if (!part) continue;
      const at = (u: number): [number, number, number] => [x0 + (x1 - x0) * u, y0 + (y1 - y0) * u, z0 + (z1 - z0) * u];
      const [ax, ay, az] = at(part[0]),
        [bx, by, bz] = at(part[1]);
      const ends = Float64Array.of(ax, ay, az, bx, by, bz);
      t.tile.toOutput(ends);
      const mx = (ax + bx) / 2,
        my = (ay + by) / 2;
      const descriptor: Record<string, unknown> = {
        type: 'wire',
        id: f.id,
        source: 'osm',
        power: f.tags.power,
        span: k / 2,
        from: [...ends.subarray(0, 3)].map(mm),
        to: [...ends.subarray(3)].map(mm),
        length: mm(Math.hypot(bx - ax, by - ay)),
      };
      if (part[0] > 0 || part[1] < 1) descriptor.cropped = true;
      for (const tag of ['voltage', 'cables', 'name', 'operator']) if (f.tags[tag]) descriptor[tag] = f.tags[tag];
      out.push({ node: { type: 'wire', x: mx, y: my, z: t.groundAt(mx, my), rotation: normaliseAngle(Math.atan2(by - ay, bx - ax)), scale: 1, descriptor } });
    }
  }
  return out;
}

/** The stretch [u0, u1] of the span (0 = first support, 1 = second) inside the polygon that holds the anchor (or the longest), or null. */
function spanInside(x0: number, y0: number, x1: number, y1: number, anchor: [number, number], crop: CropPolygon): [number, number] | null {
  const parts = clipPolylineToPolygon([x0, y0, x1, y1], false, crop);
  const dx = x1 - x0,
    dy = y1 - y0,
    len2 = dx * dx + dy * dy;
  if (parts.length === 0 || len2 === 0) return null;
  const u = (x: number, y: number) => Math.min(1, Math.max(0, ((x - x0) * dx + (y - y0) * dy) / len2));
  const ua = u(anchor[0], anchor[1]);
  let best: [number, number] | null = null;
  for (const { points: p } of parts) {
    const r: [number, number] = [u(p[0], p[1]), u(p[p.length - 2], p[p.length - 1])];
    if (r[0] > r[1]) r.reverse();
    if (r[0] - 1e-9 <= ua && ua <= r[1] + 1e-9) return r;
    if (!best || r[1] - r[0] > best[1] - best[0]) best = r;
  }
  return best;
}

/** A line vertex or a point on the OSM grid (1e-7°): the same key for a tower and the line's vertex on it. */
export function supportKey(lon: number, lat: number): string {
  return `${Math.round(lon * 1e7)},${Math.round(lat * 1e7)}`;
}

function mm(v: number): number {
  return Math.round(v * 1000) / 1000;
}
