/**
 * The state of one roadSurfaces run (road-surfaces.ts): the output areas, the pieces that will be
 * resolved into them, the centerlines, and what numbers junctions met at more than one node.
 * Methods, not closures made per run: V8 keeps a closure's optimised code only while a closure of
 * it lives, so per-run closures would be compiled again after every full collection.
 */
import type { Paths64 } from 'clipper2-ts';
import type { Footprint } from '../../types.ts';
import type { DeckElevation, SurfaceArea, SurfaceKind, SurfaceLine } from '../types.ts';
import { SURFACE_PRIORITY } from '../priority.ts';
import type { Band } from './offset.ts';
import { resolvePieces, type Piece } from './pieces.ts';
import { meetingTheirBox, type WithinBox } from './within.ts';
import type { RoadWay } from './road-ways.ts';

export type Role = 'junction' | 'way' | 'overlay' | 'corner' | 'sidewalk';
/** Precedence among pieces of equal priority (see byPrecedence). */
const ROLE_ORDER: Record<Role, number> = { junction: 0, way: 1, overlay: 2, corner: 3, sidewalk: 4 };

export interface AreaRecord {
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

/** A piece with its owner's precedence fields, for the sort. */
interface Ranked {
  piece: PieceRecord;
  priority: number;
  role: number;
  width: number;
  id: string;
}

export const round2 = (v: number) => Math.round(v * 100) / 100;

export const bridgeGroup = (layer: number | undefined) => `bridge:${layer ?? 1}`;

export class RoadBuild {
  readonly areas: AreaRecord[] = [];
  readonly centerlines: SurfaceLine[] = [];
  private readonly pieces: PieceRecord[] = [];
  /** Pieces built but away from `within`: they may still cut one that reaches into it (finish). */
  private readonly aside: PieceRecord[] = [];
  private built = 0;
  private readonly wayArea = new Map<string, number>();
  /** Areas built at each node, by node id, to number ids met at more than one node. */
  private readonly nodeIds = new Map<string, { x: number; y: number; areas: number[] }[]>();

  constructor(
    readonly ways: readonly RoadWay[],
    readonly within: WithinBox,
  ) {}

  /** Every node where ways meet is numbered, built or not (outside `within`), so numbers do not depend on it. */
  registerNode(id: string, x: number, y: number): number[] {
    const list = this.nodeIds.get(id) ?? [];
    let entry = list.find((e) => e.x === x && e.y === y);
    if (!entry) {
      entry = { x, y, areas: [] };
      list.push(entry);
    }
    this.nodeIds.set(id, list);
    return entry.areas;
  }

  addPiece(area: number, b: Band | Paths64, cutBy?: ReadonlySet<number>): void {
    const paths = Array.isArray(b) ? b : b.paths;
    if (paths.length === 0) return;
    const piece: PieceRecord = { paths, simple: Array.isArray(b) ? false : b.simple, group: this.areas[area].group, owner: area, order: this.built++ };
    if (cutBy && cutBy.size > 0) piece.cutBy = cutBy;
    (this.within.pathsMeet(paths) ? this.pieces : this.aside).push(piece);
  }

  /** The area of way `w`'s carriageway or one of its sidewalks, made on first use. */
  wayAreaOf(w: number, role: 'way' | 'sidewalk', side?: 'left' | 'right'): number {
    const key = `${w}:${role}:${side ?? ''}`;
    let i = this.wayArea.get(key);
    if (i === undefined) {
      i = this.areas.length;
      this.areas.push(this.wayAreaRecord(w, role, side));
      this.wayArea.set(key, i);
    }
    return i;
  }

  private wayAreaRecord(w: number, role: 'way' | 'sidewalk', side?: 'left' | 'right'): AreaRecord {
    const { input, profile, deck } = this.ways[w];
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
    const rec: AreaRecord = {
      kind,
      role: rank,
      width,
      id: input.id,
      descriptor,
      size: width * this.ways[w].length,
      group: deck ? bridgeGroup(profile.layer) : 'ground',
      footprints: [],
    };
    if (deck) rec.deck = deck;
    return rec;
  }

  /** Numbers repeated junction ids, resolves the pieces by precedence and returns the areas that kept ground. */
  finish(): SurfaceArea[] {
    const areas = this.areas;
    // junctions met more than once: number them in coordinate order
    for (const list of this.nodeIds.values()) {
      if (list.length < 2) continue;
      list.sort(byXY);
      for (let i = 1; i < list.length; i++) {
        for (const area of list[i].areas) {
          const rec = areas[area];
          rec.id = `${rec.id}#${i + 1}`;
          rec.descriptor.id = rec.id;
        }
      }
    }

    // a piece away from the box still cuts those reaching in (a strip trimmed back past the box, under
    // the sidewalk corner that reaches out over it: see the roads' `within` test)
    for (const p of meetingTheirBox(this.pieces, this.aside)) this.pieces.push(p);

    // precedence: priority, then junctions before strips before overlays (raceways) before sidewalk
    // corners before sidewalks, wider first, id, build order
    const ranked: Ranked[] = this.pieces.map((piece) => {
      const a = areas[piece.owner];
      return { piece, priority: SURFACE_PRIORITY[a.kind], role: ROLE_ORDER[a.role], width: a.width, id: a.id };
    });
    ranked.sort(byPrecedence);
    const pieces = ranked.map((r) => r.piece);
    const resolved = resolvePieces(pieces);
    pieces.forEach((p, i) => {
      for (const fp of resolved[i]) areas[p.owner].footprints.push(fp);
    });

    const out: SurfaceArea[] = [];
    for (const a of areas) {
      if (a.footprints.length === 0) continue;
      const area: SurfaceArea = { kind: a.kind, priority: SURFACE_PRIORITY[a.kind], footprints: a.footprints, descriptor: a.descriptor };
      if (a.deck) area.deck = a.deck;
      else area.disjointSet = ROAD_PIECES;
      if (a.size !== undefined) area.size = a.size;
      out.push(area);
    }
    return out;
  }
}

/** The disjoint set (SurfaceArea.disjointSet) of the road pieces on the ground: resolvePieces cut each by those before it. */
const ROAD_PIECES = 'road pieces';

function byXY(a: { x: number; y: number }, b: { x: number; y: number }): number {
  return a.x - b.x || a.y - b.y;
}

function byPrecedence(p: Ranked, q: Ranked): number {
  return q.priority - p.priority || p.role - q.role || q.width - p.width || (p.id < q.id ? -1 : p.id > q.id ? 1 : 0) || p.piece.order - q.piece.order;
}
