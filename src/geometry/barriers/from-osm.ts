import { projectFlat, type LocalFrame } from '../../frame/local-frame.ts';
import type { OsmFeature } from '../../osm-model/feature.ts';
import type { GroundSampler } from '../terrain/ground-sampler.ts';
import type { IndexedMesh } from '../types.ts';
import { buildBarrierMesh } from './barrier-mesh.ts';
import { gateSpan, type HostWay } from './gate-nodes.ts';
import { cutOpenings } from './openings.ts';
import { parseBarrierTags, parseGateNodeTags } from './tags/index.ts';
import type { BarrierLine, BarrierTags } from './types.ts';

/** Store layers barriers are filed under: barrier=* ways, and man_made=embankment|dyke ('other'). */
export const BARRIER_LAYERS = ['barrier', 'other'] as const;

/** A barrier way (or closed way stored as an area) in the local frame. */
export interface BarrierFeature {
  id: string;
  tags: BarrierTags;
  lines: BarrierLine[];
  /** The feature's own area counts as meeting the polygon (filled hedges); a line or ring meets it only along itself. */
  filled: boolean;
  /** A gate node: where it stands (its anchor), and descriptor fields of its opening. */
  node?: { x: number; y: number; span: number; on: string; spanSource: string; along: boolean };
}

/** Store layers of the ways a gate node can stand on. */
export const GATE_HOST_LAYERS = ['highway', 'barrier'] as const;

/**
 * A gate or lift gate mapped as a node, as the leaf across the way it stands on (gate-nodes.ts),
 * or null (another node, or a gate on no way). `hosts`: store features around the node.
 */
export function gateNodeFeature(f: OsmFeature, frame: LocalFrame, hosts: readonly OsmFeature[]): BarrierFeature | null {
  if (f.kind !== 'point' || !f.point) return null;
  const tags = parseGateNodeTags(f.tags);
  if (!tags) return null;
  const [x, y] = frame.toLocal(f.point[0], f.point[1]);
  const ways: HostWay[] = [];
  for (const h of hosts) {
    if (h.kind === 'line' && h.line) ways.push({ id: h.id, tags: h.tags, points: projectFlat(frame, h.line), closed: false });
    else if (h.kind === 'area' && h.polygons) {
      for (const polygon of h.polygons) for (const ring of polygon) ways.push({ id: h.id, tags: h.tags, points: projectFlat(frame, ring), closed: true });
    }
  }
  const gate = gateSpan(x, y, f.tags, ways, tags.span ?? 2.5);
  if (!gate) return null;
  return { id: f.id, tags, lines: [gate.line], filled: false, node: { x, y, span: gate.span, on: gate.on, spanSource: gate.spanSource, along: gate.along } };
}

/**
 * The barrier with openings cut where gates stand in it: every gate node (gateNodeFeature) whose
 * leaf lies along a barrier way and that is a vertex of this one. Posts and filled hedges are left
 * whole, and so is a way the openings would remove entirely.
 */
export function withOpenings(b: BarrierFeature, gates: readonly BarrierFeature[]): BarrierFeature {
  if (b.tags.shape !== 'strip') return b;
  const openings = gates.filter((g) => g.node?.along).map((g) => ({ x: g.node!.x, y: g.node!.y, half: g.node!.span / 2 }));
  if (openings.length === 0) return b;
  const lines = b.lines.flatMap((l) => cutOpenings(l, openings));
  // a way no longer than its gate's opening stays whole: every barrier way keeps its mesh
  return lines.length > 0 ? { ...b, lines } : b;
}

/** The barrier a store feature describes, or null (not a barrier, or no usable geometry). */
export function barrierFeature(f: OsmFeature, frame: LocalFrame): BarrierFeature | null {
  const tags = parseBarrierTags(f.tags, f.kind);
  if (!tags) return null;
  const lines: BarrierLine[] = [];
  if (f.kind === 'line' && f.line && f.line.length >= 4) {
    const points = projectFlat(frame, f.line);
    const n = points.length;
    const closed = n >= 8 && points[0] === points[n - 2] && points[1] === points[n - 1];
    lines.push({ points: closed ? points.slice(0, n - 2) : points, closed });
  } else if (f.kind === 'area' && f.polygons) {
    f.polygons.forEach((polygon, n) => {
      for (const ring of polygon) lines.push({ points: projectFlat(frame, ring), closed: true, polygon: n });
    });
  }
  if (lines.length === 0) return null;
  return { id: f.id, tags, lines, filled: tags.shape === 'area' };
}

export interface BarrierMesh {
  mesh: IndexedMesh;
  descriptor: BarrierDescriptor;
}

/** `descriptor` of a barrier mesh (docs/barriers.md). */
export interface BarrierDescriptor {
  type: string;
  id: string;
  height: number;
  width: number;
  material?: string;
  colour?: string;
  heightSource: 'tag' | 'default';
  widthSource: 'tag' | 'default';
  /** Post spacing of a bollard row, metres. */
  spacing?: number;
  /** Gate nodes: the opening (metres), where it came from, and the way the gate stands on. */
  span?: number;
  spanSource?: string;
  on?: string;
  dataNotes?: string[];
}

/** The barrier's mesh and descriptor, or null when no sound solid can be made of it. */
export function buildBarrier(b: BarrierFeature, ground?: GroundSampler): BarrierMesh | null {
  const built = buildBarrierMesh(b.tags, b.lines, ground);
  if (!built) return null;
  const t = b.tags;
  const notes = [...(t.dataNotes ?? [])];
  if (built.droppedPieces > 0) notes.push(`${built.droppedPieces} overlapping piece(s) of a self-retracing way left out`);
  const descriptor: BarrierDescriptor = {
    type: t.kind,
    id: b.id,
    height: t.height,
    width: t.width,
    ...(t.material ? { material: t.material } : {}),
    ...(t.colour ? { colour: t.colour } : {}),
    heightSource: t.heightSource,
    widthSource: t.widthSource,
    ...(t.spacing ? { spacing: t.spacing } : {}),
    ...(b.node ? { span: b.node.span, spanSource: b.node.spanSource, on: b.node.on } : {}),
    ...(notes.length ? { dataNotes: notes } : {}),
  };
  return { mesh: built.mesh, descriptor };
}
