import { createLocalFrame, projectFlat, type LocalFrame } from '../../frame/local-frame.ts';
import { cropPolygon } from '../../geometry/crop/crop-polygon.ts';
import { flatBounds } from '../../geometry/ring.ts';
import type { LonLatBBox } from '../../osm-model/feature.ts';
import type { CropPolygon } from '../../geometry/crop/crop-polygon.ts';
import type { OsmSource } from '../../sources/osm/types.ts';
import type { GroundSquare } from './ground-square.ts';

/**
 * The fixed grid the ground is kept on (docs/ground.md "The ground cache"): cells of
 * GROUND_CELL_DEGREES in longitude and latitude (~560 m north–south; 420 m east–west at 41°N), so a
 * cell's ground depends on the data and the cell alone — never on the request that first asked for
 * it — and can be built once and cut to any request's tiles.
 *
 * Each cell is built in the transverse Mercator frame at its centre, over the local box of its
 * outline, and cut to that outline. The outline's sides are a meridian and a parallel, which are
 * not straight in the frame (a parallel bows ~3 mm over 420 m at 41°N): each side is kept as
 * CELL_SIDE_SEGMENTS chords between points fixed in longitude and latitude, so two neighbouring
 * cells, built in different frames, cut their ground along the same points and their pieces meet
 * exactly once both are in the request's frame.
 */
export const GROUND_CELL_DEGREES = 0.005;

/** Chords per side of a cell's outline: a parallel then stays within 0.02 mm of its chords. */
const CELL_SIDE_SEGMENTS = 16;

export interface GroundCell {
  /** Column and row: the cell spans [i, i + 1) × GROUND_CELL_DEGREES east and [j, j + 1) × … north. */
  i: number;
  j: number;
}

/** The cells that meet a lon/lat box. */
export function cellsMeeting(box: LonLatBBox): GroundCell[] {
  const i0 = Math.floor(box.minLon / GROUND_CELL_DEGREES),
    i1 = Math.floor(box.maxLon / GROUND_CELL_DEGREES);
  const j0 = Math.floor(box.minLat / GROUND_CELL_DEGREES),
    j1 = Math.floor(box.maxLat / GROUND_CELL_DEGREES);
  const out: GroundCell[] = [];
  for (let j = j0; j <= j1; j++) for (let i = i0; i <= i1; i++) out.push({ i, j });
  return out;
}

/** The cell's outline in lon/lat, counter-clockwise from its south-west corner, each side in CELL_SIDE_SEGMENTS chords. */
export function cellOutlineLonLat({ i, j }: GroundCell): number[] {
  const w = i * GROUND_CELL_DEGREES,
    e = (i + 1) * GROUND_CELL_DEGREES,
    s = j * GROUND_CELL_DEGREES,
    n = (j + 1) * GROUND_CELL_DEGREES;
  // every side's points are computed west to east or south to north, whichever way the outline
  // runs along it, so a neighbour computes the very same numbers for the side they share
  const along = (fixed: number, from: number, to: number, meridian: boolean): number[][] => {
    const out: number[][] = [];
    for (let k = 0; k < CELL_SIDE_SEGMENTS; k++) {
      const v = from + ((to - from) * k) / CELL_SIDE_SEGMENTS;
      out.push(meridian ? [fixed, v] : [v, fixed]);
    }
    return out;
  };
  const south = along(s, w, e, false);
  const east = along(e, s, n, true);
  const north = [...along(n, w, e, false).slice(1), [e, n]].reverse();
  const west = [...along(w, s, n, true).slice(1), [w, n]].reverse();
  return [...south, ...east, ...north, ...west].flat();
}

/** The cell's lon/lat box. */
export function cellBox({ i, j }: GroundCell): LonLatBBox {
  return {
    minLon: i * GROUND_CELL_DEGREES,
    minLat: j * GROUND_CELL_DEGREES,
    maxLon: (i + 1) * GROUND_CELL_DEGREES,
    maxLat: (j + 1) * GROUND_CELL_DEGREES,
  };
}

const frames = new Map<string, LocalFrame>();

/** The frame a cell is built in: transverse Mercator at its centre (cached per thread). */
export function cellFrame(cell: GroundCell): LocalFrame {
  const key = `${cell.i},${cell.j}`;
  let frame = frames.get(key);
  if (!frame) {
    if (frames.size > 1024) frames.clear();
    frame = createLocalFrame((cell.j + 0.5) * GROUND_CELL_DEGREES, (cell.i + 0.5) * GROUND_CELL_DEGREES);
    frames.set(key, frame);
  }
  return frame;
}

/**
 * The square the ground family builds a cell on, as if it were a tile: the cell's frame, the local
 * box of its outline, flat ground (the cached ground is that of requests without terrain); and
 * the outline, which the built ground is cut to.
 */
export function cellSquare(source: OsmSource, cell: GroundCell): GroundSquare & { outline: CropPolygon } {
  const frame = cellFrame(cell);
  const outline = projectFlat(frame, cellOutlineLonLat(cell));
  const bbox = flatBounds(outline);
  const box = cellBox(cell);
  return { source, frame, bbox, lonLatBBox: (padMetres = 25) => padded(box, padMetres), outline: cropPolygon(outline) };
}

/** A lon/lat box grown by about `metres` on every side (the local box of a cell's outline lies within a millimetre of it). */
function padded(b: LonLatBBox, metres: number): LonLatBBox {
  const dLat = metres / 110_574 + 1e-7;
  const dLon = metres / (111_320 * Math.cos((((b.minLat + b.maxLat) / 2) * Math.PI) / 180)) + 1e-7;
  return { minLon: b.minLon - dLon, minLat: b.minLat - dLat, maxLon: b.maxLon + dLon, maxLat: b.maxLat + dLat };
}
