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
 * Bridges (`bridge=*`, not `no`): every area and centerline of the way carries `deck` with the
 * ground height at the way's first and last vertices (`ground(x, y)`, or 0 without a sampler); a
 * junction whose ways are all bridges carries a level deck at the height of its node on the first
 * of them. Bridge pieces are cut only by pieces of the same bridge layer (`layer`, default 1) and
 * by the ground junction at their abutments (so a bridge strip ends on its junction's edge), and
 * never cut the ground under them. Tunnels and covered ways give nothing at all.
 */
import type { Paths64 } from 'clipper2-ts';
import { Clipper, FillRule } from 'clipper2-ts';
import type { BBox, Footprint } from '../../types.ts';
import type { DeckElevation, SurfaceArea, SurfaceKind, SurfaceLine } from '../types.ts';
import { SURFACE_PRIORITY } from '../priority.ts';
import { buildRoadGraph, type RoadGraph, type RoadSegment } from './graph.ts';
import { junctionShape, type JunctionArm } from './junction.ts';
import { band, ringBand, type Band } from './offset.ts';
import { resolvePieces, type Piece } from './pieces.ts';
import { meetingTheirBox, withinTests } from './within.ts';
import { roadWays, type RoadInput } from './road-ways.ts';
import { shrunkAndGrown } from '../assemble/offset.ts';

export type { RoadInput } from './road-ways.ts';

/** Parts of a sidewalk corner narrower than this go when an unpaved carriageway is taken out of it, metres. */
const CORNER_MIN_WIDTH = 0.004;

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
}

export interface RoadSurfaces {
  areas: SurfaceArea[];
  centerlines: SurfaceLine[];
}

/** Share of a segment one node may trim when the other end is also trimmed, and when it is a dead end. */
export const TRIM_SHARE = 0.45;
export const TRIM_SHARE_DEAD_END = 0.5;


type Role = 'junction' | 'way' | 'overlay' | 'corner' | 'sidewalk';
/** Precedence among pieces of equal priority (see the sort at the end). */
const ROLE_ORDER: Record<Role, number> = { junction: 0, way: 1, overlay: 2, corner: 3, sidewalk: 4 };

interface AreaRecord {
  kind: SurfaceKind;
  role: Role;
  width: number;
  id: string;
  descriptor: Record<string, unknown>;
  deck?: DeckElevation;
  /** Strips: width × the whole way's length (SurfaceArea.size). */
  size?: number;
  group: string;
  footprints: Footprint[];
}

interface PieceRecord extends Piece {
  order: number;
}

const round2 = (v: number) => Math.round(v * 100) / 100;

const bridgeGroup = (layer: number | undefined) => `bridge:${layer ?? 1}`;

/** Builds the road surfaces of a tile's highway lines (see the module comment). */
export function roadSurfaces(roads: readonly RoadInput[], options: RoadSurfaceOptions = {}): RoadSurfaces {
  const ways = roadWays(roads, options.ground ?? (() => 0));

  const areas: AreaRecord[] = [];
  const pieces: PieceRecord[] = [];
  const centerlines: SurfaceLine[] = [];
  const wayArea = new Map<string, number>();
  /** Areas built at each node, by node id, to number ids met at more than one node. */
  const nodeIds = new Map<string, { x: number; y: number; areas: number[] }[]>();
  /** Every node where ways meet is numbered, built or not (outside `within`), so numbers do not depend on it. */
  const registerNode = (id: string, x: number, y: number): number[] => {
    const list = nodeIds.get(id) ?? [];
    let entry = list.find((e) => e.x === x && e.y === y);
    if (!entry) {
      entry = { x, y, areas: [] };
      list.push(entry);
    }
    nodeIds.set(id, list);
    return entry.areas;
  };
  const { nodeNear, reachesWithin, meets, pathsMeet } = withinTests(options.within);

  const areaFor = (key: string, make: () => AreaRecord): number => {
    let i = wayArea.get(key);
    if (i === undefined) {
      i = areas.length;
      areas.push(make());
      wayArea.set(key, i);
    }
    return i;
  };
  /** Pieces built but away from `within`: they may still cut one that reaches into it (below). */
  const aside: PieceRecord[] = [];
  let built = 0;
  const addPiece = (area: number, b: Band | Paths64, cutBy?: ReadonlySet<number>) => {
    const paths = Array.isArray(b) ? b : b.paths;
    if (paths.length === 0) return;
    const piece: PieceRecord = { paths, simple: Array.isArray(b) ? false : b.simple, group: areas[area].group, owner: area, order: built++ };
    if (cutBy && cutBy.size > 0) piece.cutBy = cutBy;
    (pathsMeet(paths) ? pieces : aside).push(piece);
  };

  const wayAreaOf = (w: number, role: 'way' | 'sidewalk', side?: 'left' | 'right'): number => {
    const { input, profile, deck } = ways[w];
    return areaFor(`${w}:${role}:${side ?? ''}`, () => {
      const kind: SurfaceKind = role === 'way' ? profile.kind : 'pavement';
      const width = role === 'way' ? profile.width : profile.sidewalks[side!];
      const descriptor: Record<string, unknown> = { type: kind, id: input.id, highway: input.tags.highway };
      if (input.tags.surface !== undefined && role === 'way') descriptor.surface = input.tags.surface;
      if (profile.lanes !== undefined && role === 'way') descriptor.lanes = profile.lanes;
      descriptor.width = round2(width);
      if (profile.layer !== undefined) descriptor.layer = profile.layer;
      if (side) descriptor.sidewalk = side;
      if (profile.bridge) descriptor.bridge = true;
      const rank: Role = role === 'way' && profile.network === null ? 'overlay' : role;
      const rec: AreaRecord = { kind, role: rank, width, id: input.id, descriptor, size: width * ways[w].length, group: deck ? bridgeGroup(profile.layer) : 'ground', footprints: [] };
      if (deck) rec.deck = deck;
      return rec;
    });
  };

  /** Deck height of way w at distance d along it. */
  const zAlong = (w: number, d: number): number => {
    const deck = ways[w].deck!;
    const l = ways[w].length;
    return l > 0 ? deck.start.z + ((deck.end.z - deck.start.z) * Math.min(Math.max(d, 0), l)) / l : deck.start.z;
  };

  for (const network of ['road', 'path', null] as const) {
    const members: number[] = [];
    ways.forEach((w, i) => {
      if (w.profile.network === network) members.push(i);
    });
    if (members.length === 0) continue;
    const graph = buildRoadGraph(members.map((i) => ({ points: ways[i].input.points })));
    buildNetwork(graph, members);
  }

  function buildNetwork(graph: RoadGraph, members: number[]): void {
    const { segments, nodes } = graph;
    const wayOf = (s: RoadSegment) => members[s.way];
    const half = (s: RoadSegment) => ways[wayOf(s)].profile.width / 2;
    const sidewalks = (s: RoadSegment) => ways[wayOf(s)].profile.sidewalks;
    const cutC = segments.map((s) => [0, s.length]);
    const cutO = segments.map((s) => [0, s.length]);
    const connectors = segments.map(() => [] as Paths64[]);
    /** Ground areas built at each node: they also cut the bridge strips that start there. */
    const groundAt = new Map<number, number[]>();
    const noteGround = (node: number, area: number) => {
      if (areas[area].deck) return;
      groundAt.set(node, [...(groundAt.get(node) ?? []), area]);
    };
    const arity = nodes.map((n) => n.arms.length);

    const armsOf = (node: number, outer: boolean): JunctionArm[] =>
      nodes[node].arms.map(({ segment, atStart }) => {
        const seg = segments[segment];
        const h = half(seg);
        const sw = outer ? sidewalks(seg) : { left: 0, right: 0 };
        const wayLeft = h + sw.left, wayRight = h + sw.right;
        const other = atStart ? seg.end : seg.start;
        const share = other === node || arity[other] >= 2 ? TRIM_SHARE : TRIM_SHARE_DEAD_END;
        return { seg, atStart, left: atStart ? wayLeft : wayRight, right: atStart ? wayRight : wayLeft, cap: share * seg.length };
      });

    const idOfNode = (node: number, prefix: string): { id: string; ids: string[] } => {
      const ids = [...new Set(nodes[node].arms.map((a) => ways[wayOf(segments[a.segment])].input.id))].sort();
      return { id: `${prefix}/${ids.join('+')}`, ids };
    };

    for (let ni = 0; ni < nodes.length; ni++) {
      const node = nodes[ni];
      const k = node.arms.length;
      if (k < 2) continue;
      const { id, ids } = idOfNode(ni, k >= 3 ? 'junction' : 'join');
      const numbered = registerNode(id, node.x, node.y);
      if (!nodeNear(node.x, node.y) || !reachesWithin(node.x, node.y, armsOf(ni, true))) continue;
      const arms = armsOf(ni, false);
      const shape = junctionShape(node.x, node.y, arms);
      node.arms.forEach((a, i) => {
        cutC[a.segment][a.atStart ? 0 : 1] = shape.cuts[i];
      });
      const armWays = node.arms.map((a) => wayOf(segments[a.segment]));
      const allBridges = armWays.every((w) => ways[w].profile.bridge);
      let deck: DeckElevation | undefined;
      let layer: number | undefined;
      if (allBridges) {
        const a0 = node.arms[0];
        const s0 = segments[a0.segment];
        const z = zAlong(armWays[0], s0.wayOffset + (a0.atStart ? 0 : s0.length));
        deck = { start: { x: node.x, y: node.y, z }, end: { x: node.x, y: node.y, z } };
        layer = Math.max(...armWays.map((w) => ways[w].profile.layer ?? 1));
      }
      if (k >= 3) {
        if (shape.paths.length > 0) {
          const kinds = armWays.map((w) => ways[w].profile.kind);
          const widest = armWays.reduce((best, w) => (ways[w].profile.width > ways[best].profile.width ? w : best), armWays[0]);
          const kind: SurfaceKind = ways[widest].profile.network === 'road' && kinds.includes('asphalt') ? 'roadwayIntersection' : ways[widest].profile.kind;
          const descriptor: Record<string, unknown> = { type: kind, id, ways: ids, junction: true };
          if (layer !== undefined) descriptor.layer = layer;
          if (deck) descriptor.bridge = true;
          const rec: AreaRecord = { kind, role: 'junction', width: Infinity, id, descriptor, group: deck ? bridgeGroup(layer) : 'ground', footprints: [] };
          if (deck) rec.deck = deck;
          const area = areas.length;
          areas.push(rec);
          numbered.push(area);
          noteGround(ni, area);
          addPiece(area, shape.paths);
        }
      } else if (shape.paths.length > 0) {
        // a join: the connector belongs to the wider way's strip
        const [a, b] = node.arms;
        const target = half(segments[b.segment]) > half(segments[a.segment]) ? b : a;
        connectors[target.segment].push(shape.paths);
      }

      // sidewalk corners
      if (!node.arms.some((a) => sidewalks(segments[a.segment]).left > 0 || sidewalks(segments[a.segment]).right > 0)) continue;
      const outer = junctionShape(node.x, node.y, armsOf(ni, true));
      node.arms.forEach((a, i) => {
        cutO[a.segment][a.atStart ? 0 : 1] = outer.cuts[i];
      });
      let cornerPaths = outer.paths;
      if (armWays.some((w) => SURFACE_PRIORITY[ways[w].profile.kind] < SURFACE_PRIORITY.pavement)) {
        // an unpaved carriageway ranks below pavement: take its ground out of the corner here, as
        // the precedence would not (the junction polygon and each strip up to the sidewalk cut)
        const carriage: Paths64 = [...shape.paths];
        node.arms.forEach((a, i) => {
          const seg = segments[a.segment];
          const h = half(seg);
          const from = a.atStart ? shape.cuts[i] : outer.cuts[i], to = a.atStart ? outer.cuts[i] : shape.cuts[i];
          for (const p of band(seg, Math.min(from, to), Math.max(from, to), -h, h).paths) carriage.push(p);
        });
        // opened: the corner's and the strips' sides are rounded to the grid separately, and a
        // sliver under a millimetre wide left along a strip (pavement ranks above sand) would cut
        // the strip's last millimetres off, short of the junction
        const rest = Clipper.difference(outer.paths, carriage, FillRule.NonZero);
        cornerPaths = Clipper.intersect(rest, shrunkAndGrown(rest, CORNER_MIN_WIDTH), FillRule.NonZero);
      }
      if (cornerPaths.length === 0) continue;
      const descriptor: Record<string, unknown> = { type: 'pavement', id, ways: ids, sidewalk: 'corner' };
      if (layer !== undefined) descriptor.layer = layer;
      if (deck) descriptor.bridge = true;
      const rec: AreaRecord = { kind: 'pavement', role: 'corner', width: 0, id, descriptor, group: deck ? bridgeGroup(layer) : 'ground', footprints: [] };
      if (deck) rec.deck = deck;
      areas.push(rec);
      numbered.push(areas.length - 1);
      noteGround(ni, areas.length - 1);
      addPiece(areas.length - 1, cornerPaths);
    }

    segments.forEach((seg, si) => {
      const w = wayOf(seg);
      const sw = ways[w].profile.sidewalks;
      // (a join's connector belongs to the strip and can reach past the segment's own ground)
      if (!meets(seg.pts, ways[w].profile.width / 2 + Math.max(sw.left, sw.right)) && !connectors[si].some(pathsMeet)) return;
      const { input, profile, deck } = ways[w];
      const h = profile.width / 2;
      const carriageway = wayAreaOf(w, 'way');
      const cutBy = deck && !seg.ring ? new Set([...(groundAt.get(seg.start) ?? []), ...(groundAt.get(seg.end) ?? [])]) : undefined;
      if (seg.ring) {
        addPiece(carriageway, ringBand(seg, -h, h), cutBy);
      } else {
        const strip = band(seg, cutC[si][0], cutC[si][1], -h, h);
        if (connectors[si].length > 0) {
          addPiece(carriageway, Clipper.union([...strip.paths, ...connectors[si].flat()], FillRule.NonZero), cutBy);
        } else {
          addPiece(carriageway, strip, cutBy);
        }
      }
      for (const side of ['left', 'right'] as const) {
        const sw = profile.sidewalks[side];
        if (sw <= 0) continue;
        const [lo, hi] = side === 'left' ? [h, h + sw] : [-h - sw, -h];
        const area = wayAreaOf(w, 'sidewalk', side);
        addPiece(area, seg.ring ? ringBand(seg, lo, hi) : band(seg, cutO[si][0], cutO[si][1], lo, hi), cutBy);
      }
      // centerline: the segment's axis (segments end only at nodes where ways meet)
      const descriptor: Record<string, unknown> = { type: profile.kind, kind: 'centerline', id: input.id, highway: input.tags.highway };
      if (input.tags.name !== undefined) descriptor.name = input.tags.name;
      descriptor.width = round2(profile.width);
      if (profile.bridge) descriptor.bridge = true;
      const line: SurfaceLine = { points: Array.from(seg.pts), closed: seg.ring, descriptor };
      if (deck) line.deck = deck;
      centerlines.push(line);
    });
  }

  // junctions met more than once: number them in coordinate order
  for (const list of nodeIds.values()) {
    if (list.length < 2) continue;
    list.sort((a, b) => a.x - b.x || a.y - b.y);
    list.forEach((entry, i) => {
      if (i === 0) return;
      for (const area of entry.areas) {
        const rec = areas[area];
        rec.id = `${rec.id}#${i + 1}`;
        rec.descriptor.id = rec.id;
      }
    });
  }

  // a piece away from the box still cuts those reaching in (a strip trimmed back past the box, under
  // the sidewalk corner that reaches out over it: see test/surfaces-roads-within.test.ts)
  for (const p of meetingTheirBox(pieces, aside)) pieces.push(p);

  // precedence: priority, then junctions before strips before overlays (raceways) before sidewalk
  // corners before sidewalks, wider first, id, build order
  const prio = (p: PieceRecord) => SURFACE_PRIORITY[areas[p.owner].kind];
  pieces.sort((p, q) => {
    const a = areas[p.owner], b = areas[q.owner];
    return prio(q) - prio(p) || ROLE_ORDER[a.role] - ROLE_ORDER[b.role] || b.width - a.width || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0) || p.order - q.order;
  });
  const resolved = resolvePieces(pieces);
  pieces.forEach((p, i) => {
    for (const fp of resolved[i]) areas[p.owner].footprints.push(fp);
  });

  const out: SurfaceArea[] = [];
  for (const a of areas) {
    if (a.footprints.length === 0) continue;
    const area: SurfaceArea = { kind: a.kind, priority: SURFACE_PRIORITY[a.kind], footprints: a.footprints, descriptor: a.descriptor };
    if (a.deck) area.deck = a.deck;
    if (a.size !== undefined) area.size = a.size;
    out.push(area);
  }
  return { areas: out, centerlines };
}
