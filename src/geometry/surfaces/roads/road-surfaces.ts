/**
 * Roads as areas: OSM highway centerlines become carriageways, sidewalks, paths and junctions on
 * the ground, plus their centerlines. Pure geometry in the local frame (x east, y north, metres).
 *
 *   const { areas, centerlines } = roadSurfaces(ways, { ground: (x, y) => terrain.heightAt(x, y) });
 *
 * Steps: classify each way (classify.ts: kind, width, sidewalks, or not drawn); per network
 * (carriageways, paths, construction sites) cut the ways into segments at shared nodes (graph.ts);
 * at every node where two or more segment ends meet build the node polygon and the trims
 * (junction.ts) — three or more ends make a junction area, two a connector that joins the wider
 * way's strip — and the same again with the sidewalks' outer widths for sidewalk corners; offset
 * each trimmed segment into its strip and its sidewalk strips (offset.ts); cut overlaps by
 * precedence (pieces.ts); collect footprints per way and role. With `within`, pieces away from
 * that box are skipped after the graph is built (a tile builds only what it keeps), except those
 * that meet the pieces reaching into it (they may cut them).
 *
 * Ids. A junction is `junction/<ids of its ways, sorted, joined by +>` (the ids of the ways that
 * meet are the same in every request, unlike local coordinates), with `#2`, `#3` … when the same
 * ways meet at more than one node of the ways given (built or not: `within` changes no number;
 * numbered in order of the nodes' coordinates, x then y). Its descriptor lists the ways in `ways`. Sidewalk corners carry the junction's id (`join/…`
 * at a two-way join) and `sidewalk: 'corner'`.
 *
 * Bridges (`bridge=*`, not `no`): every area and centerline of the way carries `deck`, the way's
 * deck profile (bridge-profile.ts: up from the ground at its abutments to clear what it crosses,
 * `ground(x, y)` or 0 without a sampler); a junction whose ways are all bridges carries its arms'
 * profiles, so it lies on the deck where each arm reaches it. Bridge pieces are cut only by pieces of the same bridge layer (`layer`, default 1) and
 * by the ground junction at their abutments (so a bridge strip ends on its junction's edge), and
 * never cut the ground under them. Tunnels and covered ways give nothing at all.
 */
import type { BBox } from '../../types.ts';
import type { SurfaceArea, SurfaceLine } from '../types.ts';
import { buildRoadGraph } from './graph.ts';
import { WithinBox } from './within.ts';
import { roadWays } from './road-ways.ts';
import type { RoadInput } from './road-ways.ts';
import { RoadBuild } from './road-build.ts';
import { RoadNetwork } from './road-network.ts';
import type { UnderLine } from './bridge-crossings.ts';
import { bridgeDecks } from './bridge-profile.ts';

export type { RoadInput } from './road-ways.ts';
export type { UnderLine } from './bridge-crossings.ts';
export { TRIM_SHARE, TRIM_SHARE_DEAD_END } from './road-network.ts';

export interface RoadSurfaceOptions {
  /** Ground height at a point (bridge abutments); 0 everywhere when absent. */
  ground?: (x: number, y: number) => number;
  /**
   * Only the ground in this box is wanted (a tile): pieces that do not meet it are neither built
   * nor resolved — strips of segments away from it, junctions at nodes farther than JUNCTION_REACH
   * or whose polygon misses it. The graph (segments, trims, junction numbers) is still that of the
   * whole ways, so inside the box the areas are exactly those of the whole build. Ways must be
   * given whole, every way that comes within JUNCTION_REACH of the box.
   */
  within?: BBox;
  /** Railways and waterways a bridge may cross (bridge-crossings.ts); roads are the ways themselves. */
  under?: readonly UnderLine[];
  /**
   * More highway ways, for the bridge decks only: the rest of a bridge chain and the roads at its
   * abutments beyond the ways given (a deck's profile is that of its whole chain). Not drawn, and
   * not part of the junction graph.
   */
  context?: readonly RoadInput[];
}

export interface RoadSurfaces {
  areas: SurfaceArea[];
  centerlines: SurfaceLine[];
}

const NETWORKS = ['road', 'path', null] as const;

const flatGround = () => 0;

/**
 * Builds the road surfaces of a tile's highway lines (see the module comment): the run's state is
 * road-build.ts, each network's junctions and strips road-network.ts.
 */
export function roadSurfaces(roads: readonly RoadInput[], options: RoadSurfaceOptions = {}): RoadSurfaces {
  const ways = roadWays(roads);
  // the context ways take part in the decks' chains and crossings only
  bridgeDecks([...ways, ...roadWays(options.context ?? [])], options.under ?? [], options.ground ?? flatGround);
  const build = new RoadBuild(ways, new WithinBox(options.within));
  for (const network of NETWORKS) {
    const members: number[] = [];
    for (let i = 0; i < ways.length; i++) if (ways[i].profile.network === network) members.push(i);
    if (members.length === 0) continue;
    const graph = buildRoadGraph(members.map((i) => ({ points: ways[i].input.points })));
    new RoadNetwork(build, graph, members).run();
  }
  return { areas: build.finish(), centerlines: build.centerlines };
}
