import { NOMINAL_HEIGHT } from '../../geometry/instances/catalogue.ts';
import { hashInts, hashString, unit, fineUnit } from '../../geometry/trees/hash.ts';
import { mergeDetected } from '../../geometry/trees/merge-detected.ts';
import { detectedRank } from '../../geometry/trees/tree-cap.ts';
import type { TileGroupResult } from '../../plan/tile-result.ts';
import type { TileCanopy, TileTree } from './canopy.ts';
import type { InstanceTile, Placed } from './context.ts';
import type { TreePlan } from './tree-plan.ts';
import { round } from './tree-nodes.ts';

/** Output key of a tile's canopy coverage report (read by the main thread, never sent to the client). */

/**
 * Applies `treeSource` to a tile's nodes. `hybrid`: surveyed trees stay where they are mapped and
 * take the height and crown of the detected top that is the same tree (mergeDetected); the other
 * detected trees are added; procedural trees stay only where there is no canopy data (procedural
 * shrubs everywhere: detection finds trees, not scrub). `canopy`:
 * the detected trees, and no surveyed or procedural tree (shrubs and furniture stay).
 */
export function applyTreeSource(t: InstanceTile, plan: TreePlan, canopy: TileCanopy, placed: readonly Placed[]): Placed[] {
  const out: Placed[] = [];
  let detected = canopy.trees;
  if (plan.source === 'canopy') {
    for (const p of placed) if (p.node.type !== 'tree') out.push(p);
  } else {
    const local: number[] = [];
    for (let k = 0; k < t.surveyedTrees.length; k += 2) local.push(...t.tile.frame.toLocal(t.surveyedTrees[k], t.surveyedTrees[k + 1]));
    const index = new Map<string, number>();
    for (let s = 0; s < local.length / 2; s++) index.set(`${local[2 * s]},${local[2 * s + 1]}`, s);
    const { sameAs, measuredBy } = mergeDetected(local, detected, canopy.options.maxCrownRadius);
    for (const p of placed) {
      const d = p.node.descriptor as Record<string, unknown>;
      if (d.source === 'procedural' && p.node.type === 'tree') {
        // the canopy model speaks for this ground's trees (not its shrubs: detection finds trees)
        const [lon, lat] = t.tile.frame.toLonLat(p.node.x, p.node.y);
        if (canopy.covered(lon, lat)) continue;
      } else if (p.node.type === 'tree' && d.source === 'osm') {
        const s = index.get(`${p.node.x},${p.node.y}`);
        const m = s === undefined ? -1 : measuredBy[s];
        if (m >= 0) p.node.scale = measure(d, detected[m]);
      }
      out.push(p);
    }
    detected = detected.filter((_, n) => sameAs[n] < 0);
  }
  for (const d of detected) if (d.owned && !t.inBuilding(d.lon, d.lat)) out.push(detectedNode(t, d));
  return out;
}

/** Puts a detected tree's measurements into a surveyed tree's descriptor; returns its scale. */
function measure(descriptor: Record<string, unknown>, d: TileTree): number {
  descriptor.height = round(d.height);
  descriptor.crownDiameter = round(d.crownDiameter);
  descriptor.heightSource = 'canopy';
  return d.height / NOMINAL_HEIGHT.tree;
}

function detectedNode(t: InstanceTile, d: TileTree): Placed {
  const lo = d.key % 67_108_864,
    hi = Math.floor(d.key / 67_108_864);
  const h = hashInts(lo, hi, 0x43484d);
  const descriptor = {
    type: 'tree',
    id: canopyId(d),
    source: 'canopy',
    height: round(d.height),
    crownDiameter: round(d.crownDiameter),
    heightSource: 'canopy',
  };
  const node = {
    type: 'tree' as const,
    x: d.x,
    y: d.y,
    z: t.groundAt(d.x, d.y),
    rotation: unit(h) * 2 * Math.PI,
    scale: d.height / NOMINAL_HEIGHT.tree,
    descriptor,
  };
  return { node, rank: detectedRank(d.height, fineUnit(hashInts(h, 1), hashInts(h, 2))) };
}

/**
 * A detected tree's id: its top's cell on the canopy raster's pixel lattice (`canopy/<lattice>/<cell>`,
 * the lattice as a hash of its first raster's file name, so moving the data keeps the ids), the
 * same whichever tile or request detects it (docs/trees.md "Ids").
 */
export function canopyId(d: Pick<TileTree, 'key' | 'lattice'>): string {
  return `canopy/${(hashString(d.lattice.replace(/^.*[/\\]/, '')) >>> 0).toString(36)}/${d.key}`;
}

/** The tile's coverage facts for the main thread (tree-cap.ts CanopyReport). */
export function canopyReportGroup(canopy: TileCanopy): TileGroupResult {
  const json = new TextEncoder().encode(JSON.stringify({ ...canopy.samples, uncovered: canopy.uncovered }));
  return { count: 0, json };
}
