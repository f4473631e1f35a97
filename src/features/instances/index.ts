import { JsonBytesWriter } from '../../encode/json-bytes.ts';
import { normaliseAngle } from '../../geometry/instances/tags/direction.ts';
import { writeNodeJson } from '../../encode/node-json.ts';
import { OSM_ATTRIBUTION } from '../../sources/attributions.ts';
import { collectTrees } from './tree-cap.ts';
import { TILE_REPORTS } from '../../plan/tile-result.ts';
import type { OsmLayer } from '../../osm-model/feature.ts';
import { planOf, type FeatureFamily } from '../family.ts';
import { readTileCanopy } from './canopy.ts';
import { InstanceTile, type Placed } from './context.ts';
import { tileForest } from './forest.ts';
import { tileObjects } from './objects.ts';
import { STANDARD_TREES, treePlan, type TreePlan } from './tree-plan.ts';
import { tileTreeRows, treeRowLonLats } from './tree-rows.ts';
import { applyTreeSource, canopyReportGroup } from './tree-source.ts';
import { tileWires } from './wires.ts';
import { insidePolygon } from '../../geometry/crop/crop-polygon.ts';

/** Objects and what they are placed against are read this far around the tile: roads a bench faces, surveyed trees a forest keeps away from. */
const READ_PAD_METRES = 40;
const LAYERS: readonly OsmLayer[] = ['poi', 'highway', 'barrier', 'railway', 'water', 'landcover', 'other'];
const BUILDING_LAYERS: readonly OsmLayer[] = ['building', 'building_part'];

/**
 * Street furniture and trees (docs/trees.md): the `instances` group as nodes. Tagged objects
 * (objects.ts), tree rows (tree-rows.ts), power-line spans (wires.ts) and the procedural forest
 * fill (forest.ts); with `treeSource` hybrid or canopy, trees detected in the canopy height model
 * (canopy.ts, tree-source.ts). Furniture and wires go straight to `instances`; trees and shrubs go to
 * the tile report TILE_REPORTS.cappedTrees with their cap ranks, because whether one is kept depends
 * on the whole request: the main-thread step (tree-cap.ts) keeps them.
 */
export const instancesFamily: FeatureFamily<TreePlan> = {
  name: 'instances',
  group: 'instances',
  plan: treePlan,
  collect: collectTrees,
  async build(tile, out) {
    let t = performance.now();
    const lap = (stage: string) => {
      const now = performance.now();
      out.timings[stage] = (out.timings[stage] ?? 0) + now - t;
      t = now;
    };
    const features = tile.source.query(tile.lonLatBBox(READ_PAD_METRES), LAYERS);
    lap('instancesRead');
    const it = new InstanceTile(tile, features, () => tile.source.query(tile.lonLatBBox(READ_PAD_METRES), BUILDING_LAYERS));
    for (const f of features) {
      if (f.kind === 'point' && f.point && f.tags.natural === 'tree') it.surveyedTrees.push(f.point[0], f.point[1]);
      for (const [lon, lat] of treeRowLonLats(f, it)) it.surveyedTrees.push(lon, lat);
    }
    const trees = planOf(instancesFamily, tile.task) ?? STANDARD_TREES;
    const canopy = trees.source === 'standard' ? null : await readTileCanopy(it, trees);
    lap('instancesCanopy');
    let placed = [...tileObjects(it), ...tileTreeRows(it), ...tileWires(it)];
    lap('instancesObjects');
    if (trees.source !== 'canopy') placed.push(...tileForest(it));
    lap('instancesForest');
    if (canopy) {
      placed = applyTreeSource(it, trees, canopy, placed); // hybrid/canopy: detected trees, merged with the surveyed ones
      out.groups[TILE_REPORTS.canopy] = canopyReportGroup(canopy);
      out.attributions.push(...canopy.attributions);
      lap('instancesCanopy');
    }
    encode(tile.crop ? placed.filter(({ node }) => insidePolygon(tile.crop!, node.x, node.y)) : placed, tile, out); // cropScene: nodes inside only
    lap('instancesEncode');
    out.attributions.push(OSM_ATTRIBUTION);
  },
};

function encode(placed: readonly Placed[], tile: Parameters<FeatureFamily['build']>[0], out: Parameters<FeatureFamily['build']>[1]): void {
  const plain = new JsonBytesWriter(1 << 12, tile.task.output.decimals),
    trees = new JsonBytesWriter(1 << 14, tile.task.output.decimals);
  let nPlain = 0;
  const ranks: number[] = [],
    ends: number[] = [];
  const p = new Float64Array(6);
  const { crs, upAxis } = tile.task.output;
  for (const { node, rank } of placed) {
    // a point 1 m ahead of the node rides along, so the rotation follows the output grid's north (UTM convergence)
    p[0] = node.x;
    p[1] = node.y;
    p[2] = node.z;
    p[3] = node.x + Math.cos(node.rotation);
    p[4] = node.y + Math.sin(node.rotation);
    p[5] = node.z;
    out.extend(p.subarray(0, 3));
    tile.toOutput(p);
    const rotation =
      crs === 'local' ? node.rotation : normaliseAngle(upAxis === 'Y' ? Math.atan2(p[2] - p[5], p[3] - p[0]) : Math.atan2(p[4] - p[1], p[3] - p[0]));
    if (rank === undefined) {
      if (nPlain++ > 0) plain.byte(44);
      writeNodeJson(plain, node.type, p[0], p[1], p[2], rotation, node.scale, node.descriptor);
    } else {
      writeNodeJson(trees, node.type, p[0], p[1], p[2], rotation, node.scale, node.descriptor);
      ranks.push(rank);
      ends.push(trees.length);
    }
  }
  out.groups.instances = { count: nPlain, json: plain.take() };
  out.groups[TILE_REPORTS.cappedTrees] = { count: ranks.length, json: trees.take(), ranks: Float64Array.from(ranks), ends: Uint32Array.from(ends) };
}
