import { projectFlat, type LocalFrame } from '../../frame/local-frame.ts';
import { roadProfile } from '../../geometry/surfaces/roads/classify.ts';
import type { FillerContext, FillerRoad } from '../../geometry/surfaces/filler/paved-zone.ts';
import type { Footprint } from '../../geometry/types.ts';
import type { OsmFeature } from '../../osm-model/feature.ts';
import { undergroundReason } from '../../geometry/buildings/tags/index.ts';

/**
 * The buildings as the filler sees them, read FILLER_READ_METRES around the tile: every outline
 * on the ground as mapped (not underground, not a building site). The standing pieces the ground
 * cuts out (building-cut-outs.ts) cost a building's whole layout each; for a zone measured in
 * metres around façades the outlines say the same, and the tile only lays out its own buildings.
 */
export function fillerBuildings(features: readonly OsmFeature[], frame: LocalFrame): Footprint[] {
  const out: Footprint[] = [];
  for (const f of features) {
    if (f.layer !== 'building' || f.kind !== 'area' || !f.polygons) continue;
    if (f.tags.building === 'construction' || undergroundReason(f.tags)) continue;
    for (const rings of f.polygons) out.push({ outer: projectFlat(frame, rings[0]), holes: rings.slice(1).map((r) => projectFlat(frame, r)) });
  }
  return out;
}

/**
 * What decides the kind of the filler (geometry/surfaces/filler): the buildings on the ground
 * (fillerBuildings, read FILLER_READ_METRES around the tile) and the highway lines drawn on the
 * ground, as axes with half their width and the wider sidewalk. Bridges and tunnels are left out:
 * they are not beside the ground they pass over or under.
 */
export function fillerContext(features: readonly OsmFeature[], buildings: readonly Footprint[], frame: LocalFrame): FillerContext {
  const roads: FillerRoad[] = [];
  for (const f of features) {
    if (f.layer !== 'highway' || f.kind !== 'line' || !f.line) continue;
    const profile = roadProfile(f.tags);
    if (!profile || profile.bridge) continue;
    roads.push({ points: projectFlat(frame, f.line), halfWidth: profile.width / 2 + Math.max(profile.sidewalks.left, profile.sidewalks.right) });
  }
  return { buildings, roads };
}
