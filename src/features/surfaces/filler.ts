import { projectFlat, type LocalFrame } from '../../frame/local-frame.ts';
import { roadProfile } from '../../geometry/surfaces/roads/classify.ts';
import type { FillerContext, FillerRoad } from '../../geometry/surfaces/filler/paved-zone.ts';
import type { Footprint } from '../../geometry/types.ts';
import type { OsmFeature } from '../../osm-model/feature.ts';

/**
 * What decides the kind of the filler (geometry/surfaces/filler): the buildings standing on the
 * ground (`cutOut`, read FILLER_READ_METRES around the tile) and the highway lines drawn on the
 * ground, as axes with half their width and the wider sidewalk. Bridges and tunnels are left out:
 * they are not beside the ground they pass over or under.
 */
export function fillerContext(features: readonly OsmFeature[], cutOut: readonly Footprint[], frame: LocalFrame): FillerContext {
  const roads: FillerRoad[] = [];
  for (const f of features) {
    if (f.layer !== 'highway' || f.kind !== 'line' || !f.line) continue;
    const profile = roadProfile(f.tags);
    if (!profile || profile.bridge) continue;
    roads.push({ points: projectFlat(frame, f.line), halfWidth: profile.width / 2 + Math.max(profile.sidewalks.left, profile.sidewalks.right) });
  }
  return { buildings: cutOut, roads };
}
