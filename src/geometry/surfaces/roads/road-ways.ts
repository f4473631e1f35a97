/**
 * The ways roadSurfaces draws: each highway line with its profile (classify.ts) and its length;
 * a bridge gets its deck from bridge-profile.ts. Ways that are not drawn (tunnels, unknown
 * classes) and ways of fewer than two points are left out.
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
  /** Bridges: the deck's profile along the way. */
  deck?: DeckElevation;
  length: number;
}

export function roadWays(roads: readonly RoadInput[]): RoadWay[] {
  const ways: RoadWay[] = [];
  for (const input of roads) {
    const profile = roadProfile(input.tags);
    if (!profile || input.points.length < 4) continue;
    ways.push({ input, profile, length: polylineLength(input.points) });
  }
  return ways;
}
