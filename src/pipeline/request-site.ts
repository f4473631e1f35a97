import { projectFlat, type LocalFrame } from '../frame/local-frame.ts';
import { undergroundReason } from '../geometry/buildings/tags/index.ts';
import { siteRing } from '../geometry/crop/site.ts';
import type { Ring } from '../geometry/types.ts';
import type { LonLatBBox } from '../osm-model/feature.ts';
import type { OsmSource } from '../sources/osm/types.ts';
import { tileLonLatBBox } from '../tile/build-tile.ts';

/** The polygon's edges are read in pieces of at most this length (metres), each with its own box. */
const EDGE_PIECE_METRES = 100;
/** Around each piece (metres): the lon/lat box of a local segment is not exact. */
const PAD_METRES = 2;

/**
 * The request's site (geometry/crop/site.ts): the polygon plus the outlines of the buildings that
 * cross its edge, read from the store along the edge only (a few boxes, not the whole area).
 * Undefined when no building crosses the edge: the site is the polygon itself.
 */
export function requestSite(polygon: Ring, frame: LocalFrame, source: OsmSource): Ring | undefined {
  const outlines = new Map<string, Ring[]>();
  for (const box of siteReadBoxes(polygon, frame)) {
    for (const f of source.query(box, ['building'])) {
      if (outlines.has(f.id) || f.kind !== 'area' || !f.polygons || undergroundReason(f.tags)) continue;
      outlines.set(
        f.id,
        f.polygons.map((rings) => projectFlat(frame, rings[0])),
      );
    }
  }
  const site = siteRing(polygon, [...outlines.values()].flat());
  return site === polygon ? undefined : site;
}

/** The lon/lat boxes requestSite reads, one per piece of the polygon's edges (a source for it must cover them). */
export function siteReadBoxes(polygon: Ring, frame: LocalFrame): LonLatBBox[] {
  const boxes: LonLatBBox[] = [];
  const n = polygon.length / 2;
  for (let k = 0; k < n; k++) {
    const ax = polygon[2 * k],
      ay = polygon[2 * k + 1],
      bx = polygon[(2 * k + 2) % polygon.length],
      by = polygon[(2 * k + 3) % polygon.length];
    const pieces = Math.max(1, Math.ceil(Math.hypot(bx - ax, by - ay) / EDGE_PIECE_METRES));
    for (let q = 0; q < pieces; q++) {
      const x0 = ax + ((bx - ax) * q) / pieces,
        y0 = ay + ((by - ay) * q) / pieces,
        x1 = ax + ((bx - ax) * (q + 1)) / pieces,
        y1 = ay + ((by - ay) * (q + 1)) / pieces;
      boxes.push(tileLonLatBBox(frame, { minX: Math.min(x0, x1), minY: Math.min(y0, y1), maxX: Math.max(x0, x1), maxY: Math.max(y0, y1) }, PAD_METRES));
    }
  }
  return boxes;
}
