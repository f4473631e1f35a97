/**
 * One network of a roadSurfaces run (carriageways, paths or construction sites): at every node
 * where segment ends meet, the junction or join and the sidewalk corner, with the trims they put
 * on the segments; then each segment's strip, sidewalk strips and centerline (road-surfaces.ts).
 * A class, not closures made per run, so V8 keeps its optimised code across full collections.
 */
import type { Paths64 } from 'clipper2-ts';
import { Clipper, FillRule } from 'clipper2-ts';
import type { DeckElevation, SurfaceKind, SurfaceLine } from '../types.ts';
import { SURFACE_PRIORITY } from '../priority.ts';
import { deckHeight } from '../deck-height.ts';
import type { RoadGraph, RoadSegment } from './graph.ts';
import { junctionShape, type JunctionArm } from './junction.ts';
import { band, ringBand } from './offset.ts';
import { shrunkAndGrown } from '../../planar/offset.ts';
import { bridgeGroup, round2, type AreaRecord, type RoadBuild } from './road-build.ts';

/** Share of a segment one node may trim when the other end is also trimmed, and when it is a dead end. */
export const TRIM_SHARE = 0.45;
export const TRIM_SHARE_DEAD_END = 0.5;

/** Parts of a sidewalk corner narrower than this go when an unpaved carriageway is taken out of it, metres. */
const CORNER_MIN_WIDTH = 0.004;

const NO_SIDEWALKS = { left: 0, right: 0 } as const;

export class RoadNetwork {
  private readonly cutC: number[][];
  private readonly cutO: number[][];
  private readonly connectors: Paths64[][];
  /** Ground areas built at each node: they also cut the bridge strips that start there. */
  private readonly groundAt = new Map<number, number[]>();
  private readonly arity: number[];

  constructor(
    private readonly build: RoadBuild,
    private readonly graph: RoadGraph,
    private readonly members: readonly number[],
  ) {
    const { segments, nodes } = graph;
    this.cutC = segments.map((s) => [0, s.length]);
    this.cutO = segments.map((s) => [0, s.length]);
    this.connectors = segments.map(() => [] as Paths64[]);
    this.arity = nodes.map((n) => n.arms.length);
  }

  /** Builds the network's junctions, corners and strips into the run. */
  run(): void {
    for (let ni = 0; ni < this.graph.nodes.length; ni++) this.node(ni);
    const segments = this.graph.segments;
    for (let si = 0; si < segments.length; si++) this.segment(segments[si], si);
  }

  private wayOf(s: RoadSegment): number {
    return this.members[s.way];
  }

  private half(s: RoadSegment): number {
    return this.build.ways[this.wayOf(s)].profile.width / 2;
  }

  private sidewalks(s: RoadSegment): { left: number; right: number } {
    return this.build.ways[this.wayOf(s)].profile.sidewalks;
  }

  private noteGround(node: number, area: number): void {
    if (this.build.areas[area].deck) return;
    this.groundAt.set(node, [...(this.groundAt.get(node) ?? []), area]);
  }

  private armsOf(node: number, outer: boolean): JunctionArm[] {
    const { segments, nodes } = this.graph;
    return nodes[node].arms.map(({ segment, atStart }) => {
      const seg = segments[segment];
      const h = this.half(seg);
      const sw = outer ? this.sidewalks(seg) : NO_SIDEWALKS;
      const wayLeft = h + sw.left,
        wayRight = h + sw.right;
      const other = atStart ? seg.end : seg.start;
      const share = other === node || this.arity[other] >= 2 ? TRIM_SHARE : TRIM_SHARE_DEAD_END;
      return { seg, atStart, left: atStart ? wayLeft : wayRight, right: atStart ? wayRight : wayLeft, cap: share * seg.length };
    });
  }

  private idOfNode(node: number, prefix: string): { id: string; ids: string[] } {
    const { segments, nodes } = this.graph;
    const ids = [...new Set(nodes[node].arms.map((a) => this.build.ways[this.wayOf(segments[a.segment])].input.id))].sort();
    return { id: `${prefix}/${ids.join('+')}`, ids };
  }

  /** A node where two or more ends meet: its junction (or a join's connector) and its sidewalk corner. */
  private node(ni: number): void {
    const { build } = this;
    const { ways, areas, within } = build;
    const { segments, nodes } = this.graph;
    const node = nodes[ni];
    const k = node.arms.length;
    if (k < 2) return;
    const { id, ids } = this.idOfNode(ni, k >= 3 ? 'junction' : 'join');
    const numbered = build.registerNode(id, node.x, node.y);
    if (!within.nodeNear(node.x, node.y) || !within.reachesWithin(node.x, node.y, this.armsOf(ni, true))) return;
    const arms = this.armsOf(ni, false);
    const shape = junctionShape(node.x, node.y, arms);
    node.arms.forEach((a, i) => {
      this.cutC[a.segment][a.atStart ? 0 : 1] = shape.cuts[i];
    });
    const armWays = node.arms.map((a) => this.wayOf(segments[a.segment]));
    const allBridges = armWays.every((w) => ways[w].profile.bridge);
    let deck: DeckElevation | undefined;
    let layer: number | undefined;
    if (allBridges) {
      // on the deck: the arms' own profiles, so the junction meets each strip at its height
      const z = deckHeight(ways[armWays[0]].deck!, node.x, node.y);
      const axes = [...new Set(armWays)].flatMap((w) => ways[w].deck!.axes ?? []);
      deck = { start: { x: node.x, y: node.y, z }, end: { x: node.x, y: node.y, z }, axes };
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
        this.noteGround(ni, area);
        build.addPiece(area, shape.paths);
      }
    } else if (shape.paths.length > 0) {
      // a join: the connector belongs to the wider way's strip
      const [a, b] = node.arms;
      const target = this.half(segments[b.segment]) > this.half(segments[a.segment]) ? b : a;
      this.connectors[target.segment].push(shape.paths);
    }

    // sidewalk corners
    if (!node.arms.some((a) => this.sidewalks(segments[a.segment]).left > 0 || this.sidewalks(segments[a.segment]).right > 0)) return;
    const outer = junctionShape(node.x, node.y, this.armsOf(ni, true));
    node.arms.forEach((a, i) => {
      this.cutO[a.segment][a.atStart ? 0 : 1] = outer.cuts[i];
    });
    let cornerPaths = outer.paths;
    if (armWays.some((w) => SURFACE_PRIORITY[ways[w].profile.kind] < SURFACE_PRIORITY.pavement)) {
      // an unpaved carriageway ranks below pavement: take its ground out of the corner here, as
      // the precedence would not (the junction polygon and each strip up to the sidewalk cut)
      const carriage: Paths64 = [...shape.paths];
      node.arms.forEach((a, i) => {
        const seg = segments[a.segment];
        const h = this.half(seg);
        const from = a.atStart ? shape.cuts[i] : outer.cuts[i],
          to = a.atStart ? outer.cuts[i] : shape.cuts[i];
        for (const p of band(seg, Math.min(from, to), Math.max(from, to), -h, h).paths) carriage.push(p);
      });
      // opened: the corner's and the strips' sides are rounded to the grid separately, and a
      // sliver under a millimetre wide left along a strip (pavement ranks above sand) would cut
      // the strip's last millimetres off, short of the junction
      const rest = Clipper.difference(outer.paths, carriage, FillRule.NonZero);
      cornerPaths = Clipper.intersect(rest, shrunkAndGrown(rest, CORNER_MIN_WIDTH), FillRule.NonZero);
    }
    if (cornerPaths.length === 0) return;
    const descriptor: Record<string, unknown> = { type: 'pavement', id, ways: ids, sidewalk: 'corner' };
    if (layer !== undefined) descriptor.layer = layer;
    if (deck) descriptor.bridge = true;
    const rec: AreaRecord = { kind: 'pavement', role: 'corner', width: 0, id, descriptor, group: deck ? bridgeGroup(layer) : 'ground', footprints: [] };
    if (deck) rec.deck = deck;
    areas.push(rec);
    numbered.push(areas.length - 1);
    this.noteGround(ni, areas.length - 1);
    build.addPiece(areas.length - 1, cornerPaths);
  }

  /** A segment's carriageway strip (with a join's connector), its sidewalk strips and its centerline. */
  private segment(seg: RoadSegment, si: number): void {
    const { build } = this;
    const { ways, within } = build;
    const w = this.wayOf(seg);
    const sw = ways[w].profile.sidewalks;
    // (a join's connector belongs to the strip and can reach past the segment's own ground)
    if (!within.meets(seg.pts, ways[w].profile.width / 2 + Math.max(sw.left, sw.right)) && !this.connectors[si].some((c) => within.pathsMeet(c))) return;
    const { input, profile, deck } = ways[w];
    const h = profile.width / 2;
    const carriageway = build.wayAreaOf(w, 'way');
    const cutBy = deck && !seg.ring ? new Set([...(this.groundAt.get(seg.start) ?? []), ...(this.groundAt.get(seg.end) ?? [])]) : undefined;
    if (seg.ring) {
      build.addPiece(carriageway, ringBand(seg, -h, h), cutBy);
    } else {
      const strip = band(seg, this.cutC[si][0], this.cutC[si][1], -h, h);
      if (this.connectors[si].length > 0) {
        build.addPiece(carriageway, Clipper.union([...strip.paths, ...this.connectors[si].flat()], FillRule.NonZero), cutBy);
      } else {
        build.addPiece(carriageway, strip, cutBy);
      }
    }
    for (const side of ['left', 'right'] as const) {
      const width = profile.sidewalks[side];
      if (width <= 0) continue;
      const [lo, hi] = side === 'left' ? [h, h + width] : [-h - width, -h];
      const area = build.wayAreaOf(w, 'sidewalk', side);
      build.addPiece(area, seg.ring ? ringBand(seg, lo, hi) : band(seg, this.cutO[si][0], this.cutO[si][1], lo, hi), cutBy);
    }
    // centerline: the segment's axis (segments end only at nodes where ways meet)
    const descriptor: Record<string, unknown> = { type: profile.kind, kind: 'centerline', id: input.id, highway: input.tags.highway };
    if (input.tags.name !== undefined) descriptor.name = input.tags.name;
    descriptor.width = round2(profile.width);
    if (profile.bridge) descriptor.bridge = true;
    const line: SurfaceLine = { points: Array.from(seg.pts), closed: seg.ring, descriptor };
    if (deck) line.deck = deck;
    build.centerlines.push(line);
  }
}
