import { NOMINAL_HEIGHT } from '../../geometry/instances/catalogue.ts';
import { objectHeight } from '../../geometry/instances/tags/height.ts';
import { normaliseAngle } from '../../geometry/instances/tags/direction.ts';
import { featureAnchor } from '../../plan/tiling.ts';
import type { InstanceTile, Placed } from './context.ts';

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
    const k = key(lon, lat);
    if (!supports.has(k)) {
      const near = t.tile.source.query({ minLon: lon - 1e-7, minLat: lat - 1e-7, maxLon: lon + 1e-7, maxLat: lat + 1e-7 }, ['poi']);
      const tower = near.find((f) => f.kind === 'point' && f.point && key(f.point[0], f.point[1]) === k && (f.tags.power === 'tower' || f.tags.power === 'pole'));
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
      const [ax, ay] = t.tile.frame.toLocal(line[k], line[k + 1]);
      const [bx, by] = t.tile.frame.toLocal(line[k + 2], line[k + 3]);
      const anchor = featureAnchor([[ax, ay, bx, by]], t.tile.polygon, false);
      if (!anchor || !t.tile.owns(anchor)) continue;
      const ha = supportHeight(line[k], line[k + 1]) ?? nominal;
      const hb = supportHeight(line[k + 2], line[k + 3]) ?? nominal;
      const ends = Float64Array.of(ax, ay, t.groundAt(ax, ay) + ha, bx, by, t.groundAt(bx, by) + hb);
      t.tile.toOutput(ends);
      const mx = (ax + bx) / 2, my = (ay + by) / 2;
      const descriptor: Record<string, unknown> = {
        type: 'wire', id: f.id, source: 'osm', power: f.tags.power, span: k / 2,
        from: [...ends.subarray(0, 3)].map(mm), to: [...ends.subarray(3)].map(mm),
        length: mm(Math.hypot(bx - ax, by - ay)),
      };
      for (const tag of ['voltage', 'cables', 'name', 'operator']) if (f.tags[tag]) descriptor[tag] = f.tags[tag];
      out.push({ node: { type: 'wire', x: mx, y: my, z: t.groundAt(mx, my), rotation: normaliseAngle(Math.atan2(by - ay, bx - ax)), scale: 1, descriptor } });
    }
  }
  return out;
}

function key(lon: number, lat: number): string {
  return `${Math.round(lon * 1e7)},${Math.round(lat * 1e7)}`;
}

function mm(v: number): number {
  return Math.round(v * 1000) / 1000;
}
