/** Turns a tagged way's node coordinates into a line or an area (pure). */
import { cleanRingPoints, orientRing } from './multipolygon.ts';
import { closedWayIsArea } from './tag-rules.ts';
import type { Geometry } from './geometry-codec.ts';
import type { OsmTags } from '../../osm-model/feature.ts';

/**
 * The geometry of a way: an area (one counter-clockwise ring) when it is closed and its tags have
 * area semantics, otherwise a line. Null when too few distinct points remain.
 * @param coords flat [lon0, lat0, …] in way order
 * @param closed whether the first and last node are the same node
 */
export function wayGeometry(coords: readonly number[], closed: boolean, tags: OsmTags): Geometry | null {
  if (closed && closedWayIsArea(tags)) {
    const ring = cleanRingPoints(coords);
    return ring.length > 0 ? { kind: 'area', polygons: [[orientRing(ring, true)]] } : null;
  }
  const line: number[] = [];
  for (let i = 0; i < coords.length; i += 2) {
    const m = line.length;
    if (m >= 2 && line[m - 2] === coords[i] && line[m - 1] === coords[i + 1]) continue;
    line.push(coords[i], coords[i + 1]);
  }
  return line.length >= 4 ? { kind: 'line', line } : null;
}
