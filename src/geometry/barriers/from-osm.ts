import { projectFlat, type LocalFrame } from '../../frame/local-frame.ts';
import type { OsmFeature } from '../../sources/osm/types.ts';
import type { GroundSampler } from '../terrain/ground-sampler.ts';
import type { IndexedMesh } from '../types.ts';
import { buildBarrierMesh } from './barrier-mesh.ts';
import { parseBarrierTags } from './tags/index.ts';
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
    for (const polygon of f.polygons) for (const ring of polygon) lines.push({ points: projectFlat(frame, ring), closed: true });
  }
  if (lines.length === 0) return null;
  return { id: f.id, tags, lines, filled: tags.shape === 'area' };
}

export interface BarrierMesh {
  mesh: IndexedMesh;
  descriptor: BarrierDescriptor;
}

/** `descriptor` of a barrier mesh (README "## Barriers"). */
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
    ...(notes.length ? { dataNotes: notes } : {}),
  };
  return { mesh: built.mesh, descriptor };
}
