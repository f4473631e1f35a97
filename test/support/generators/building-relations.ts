/**
 * A synthetic extract of Simple 3D Buildings mapped with `type=building` relations, laid out in
 * local metres east/north of ORIGIN (a 700 m × 100 m strip, so 100 m tiles cut it into seven):
 *
 *   A  (x 10–90)    outline way/100 with relation/300 part way/101 that sticks out into the
 *                    neighbouring outline way/102 (geometry alone would give it to way/102);
 *                    way/103 is a part inside way/102 without any relation.
 *   C  (x 210–470)  outline way/120; its relation/301 parts way/121 and the multipolygon
 *                    relation/400 stand 200 m away, touching nothing.
 *   D  (x 10–695)   long outline way/130 with way/131 in its middle, which relation/302 gives to
 *                    the outline way/132 at the far west end.
 *   relation/303 lists only a way missing from the file.
 */
import { createLocalFrame } from '../../../src/frame/local-frame.ts';
import { writeOsmPbf, type NodeInput, type RelationInput, type WayInput } from './pbf-writer.ts';

export const ORIGIN: [number, number] = [43.7347, 7.4206];
export const STRIP = { width: 700, height: 100 };
const frame = createLocalFrame(ORIGIN[0], ORIGIN[1]);

/** [x0, y0, x1, y1] in local metres. */
type Rect = [number, number, number, number];

export const RECTS: Record<number, Rect> = {
  100: [10, 10, 40, 40],
  101: [25, 20, 85, 30],
  102: [40, 10, 90, 40],
  103: [60, 32, 80, 38],
  120: [210, 10, 240, 40],
  121: [420, 10, 440, 30],
  141: [450, 10, 470, 30], // outer way of the multipolygon part relation/400
  130: [305, 55, 695, 95],
  131: [480, 60, 520, 90],
  132: [10, 60, 40, 90],
};

const TAGS: Record<number, Record<string, string>> = {
  100: { building: 'yes', height: '12' },
  101: { 'building:part': 'yes', height: '20' },
  102: { building: 'yes', height: '8' },
  103: { 'building:part': 'yes', height: '15' },
  120: { building: 'yes', height: '10' },
  121: { 'building:part': 'yes', height: '6' },
  141: {},
  130: { building: 'yes', height: '9' },
  131: { 'building:part': 'yes', height: '14' },
  132: { building: 'yes', height: '11' },
};

export const RELATIONS: RelationInput[] = [
  {
    id: 300,
    tags: { type: 'building' },
    members: [
      { type: 'way', ref: 100, role: 'outline' },
      { type: 'way', ref: 101, role: 'part' },
      { type: 'node', ref: 1, role: 'entrance' },
      { type: 'relation', ref: 999, role: 'part' },
    ],
  },
  {
    id: 301,
    tags: { type: 'building', name: 'C' },
    members: [
      { type: 'way', ref: 120, role: 'outline' },
      { type: 'way', ref: 121, role: 'part' },
      { type: 'relation', ref: 400, role: 'part' },
    ],
  },
  {
    id: 302,
    tags: { type: 'building' },
    members: [
      { type: 'way', ref: 132, role: 'outline' },
      { type: 'way', ref: 131, role: 'part' },
    ],
  },
  { id: 303, tags: { type: 'building' }, members: [{ type: 'way', ref: 998, role: 'outline' }] },
  { id: 400, tags: { type: 'multipolygon', 'building:part': 'yes', height: '5' }, members: [{ type: 'way', ref: 141, role: 'outer' }] },
];

/** Corner positions of each rectangle way, rounded as the PBF stores them. */
export function cornersLonLat(wayId: number): [number, number][] {
  const [x0, y0, x1, y1] = RECTS[wayId];
  return (
    [
      [x0, y0],
      [x1, y0],
      [x1, y1],
      [x0, y1],
    ] as const
  ).map(([x, y]) => {
    const [lon, lat] = frame.toLonLat(x, y);
    return [Math.round(lon * 1e7) / 1e7, Math.round(lat * 1e7) / 1e7];
  });
}

/** The PBF bytes: four nodes per rectangle (ids wayId*10 + k), then the ways, then the relations. */
export function buildingRelationsPbf(): Buffer {
  const nodes: NodeInput[] = [];
  const ways: WayInput[] = [];
  for (const id of Object.keys(RECTS).map(Number)) {
    const refs = cornersLonLat(id).map(([lon, lat], k) => {
      nodes.push({ id: id * 10 + k, lon, lat });
      return id * 10 + k;
    });
    ways.push({ id, tags: TAGS[id], refs: [...refs, refs[0]] });
  }
  nodes.sort((a, b) => a.id - b.id);
  nodes.unshift({ id: 1, lon: ORIGIN[1], lat: ORIGIN[0], tags: { entrance: 'main' } });
  return writeOsmPbf({ nodes, ways, relations: RELATIONS });
}

/** The request polygon over the whole strip, closed, as [lat, lon]. */
export function stripPolygon(): [number, number][] {
  const corners = [
    [0, 0],
    [STRIP.width, 0],
    [STRIP.width, STRIP.height],
    [0, STRIP.height],
    [0, 0],
  ];
  return corners.map(([x, y]) => {
    const [lon, lat] = frame.toLonLat(x, y);
    return [lat, lon];
  });
}
