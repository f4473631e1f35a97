/**
 * The ways roadSurfaces draws: each highway line with its profile (classify.ts), its length and,
 * for a bridge, the deck between the ground at its two ends. Ways that are not drawn (tunnels,
 * unknown classes) and ways of fewer than two points are left out.
 */
import { polylineLength } from '../../ring.ts';
import type { DeckElevation } from '../types.ts';
import { roadProfile, type RoadProfile } from './classify.ts';

export interface RoadInput {
  /** OSM id, `way/123`. */
  id: string;
  tags: Record<string, string>;
  /** Open polyline [x0, y0, x1, y1, …] in local metres; a closed way repeats its first vertex last. */
  points: number[];
}

export interface RoadWay {
  input: RoadInput;
  profile: RoadProfile;
  /** Bridges: the ground at the first and last vertices. */
  deck?: DeckElevation;
  length: number;
}

export function roadWays(roads: readonly RoadInput[], ground: (x: number, y: number) => number): RoadWay[] {
  const ways: RoadWay[] = [];
  for (const input of roads) {
    const profile = roadProfile(input.tags);
    if (!profile || input.points.length < 4) continue;
    const way: RoadWay = { input, profile, length: polylineLength(input.points) };
    if (profile.bridge) way.deck = wayDeck(input.points, ground);
    ways.push(way);
  }
  return ways;
}

function wayDeck(points: readonly number[], ground: (x: number, y: number) => number): DeckElevation {
  const n = points.length;
  const x0 = points[0],
    y0 = points[1],
    x1 = points[n - 2],
    y1 = points[n - 1];
  return { start: { x: x0, y: y0, z: ground(x0, y0) }, end: { x: x1, y: y1, z: ground(x1, y1) } };
}
