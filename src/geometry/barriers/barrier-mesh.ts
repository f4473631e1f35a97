import { inspectMesh } from '../mesh-checks.ts';
import type { GroundSampler } from '../terrain/ground-sampler.ts';
import type { IndexedMesh } from '../types.ts';
import { areaSolid } from './area-solid.ts';
import { sweepPieces, type Lattice, type SweepPiece } from './path.ts';
import { postPieces } from './posts.ts';
import { PROFILES } from './profiles.ts';
import { concatMeshes } from '../mesh-builder.ts';
import { sweepPiece } from './sweep.ts';
import type { BarrierLine, BarrierTags } from './types.ts';

export interface BarrierMeshResult {
  mesh: IndexedMesh;
  /** Pieces left out because they would have made the mesh unsound (a way retracing itself exactly). */
  droppedPieces: number;
}

/** Stations at most this many per terrain cell along a line. */
const STATIONS_PER_CELL = 8;

/** The lattice of the terrain grid (stations are added where a line crosses it); null on flat ground. */
export function groundLattice(ground?: GroundSampler): Lattice | null {
  if (!ground || ground.grids.length === 0 || !(ground.spacing > 0 && Number.isFinite(ground.spacing))) return null;
  const box = ground.grids[0].bbox;
  return { ox: box.minX, oy: box.minY, step: ground.spacing, maxGap: ground.spacing / STATIONS_PER_CELL };
}

/** Sound as the checks judge it: closed 2-manifold, outward, nothing degenerate or non-finite. */
export function isSoundSolid(mesh: IndexedMesh): boolean {
  if (mesh.indices.length === 0) return false;
  const r = inspectMesh(mesh);
  return r.closed && r.degenerate === 0 && r.nonFinite === 0 && r.volume > 0;
}

/**
 * One barrier as one mesh: its lines swept with its profile (strips), as posts (bollard rows) or
 * as a filled solid (area hedges). Pieces are built separately and put together unwelded; the
 * whole is checked, and should pieces that overlap exactly make it unsound, it is rebuilt piece
 * by piece, keeping each piece only if the mesh stays sound. Null when nothing sound remains.
 */
export function buildBarrierMesh(tags: BarrierTags, lines: readonly BarrierLine[], ground?: GroundSampler): BarrierMeshResult | null {
  const lattice = groundLattice(ground);
  const size = { halfWidth: tags.width / 2, height: tags.height };
  const profile = PROFILES[tags.profile];
  const parts: IndexedMesh[] = [];
  if (tags.shape === 'area') {
    const solid = areaSolids(lines, tags.height, ground);
    if (solid && isSoundSolid(solid)) return { mesh: solid, droppedPieces: 0 };
  }
  const pieces: SweepPiece[] = [];
  for (const line of lines) {
    if (tags.shape === 'posts') pieces.push(...postPieces(line.points, line.closed, tags.width, tags.spacing ?? 1.5));
    else pieces.push(...sweepPieces(line.points, line.closed, size.halfWidth, lattice));
  }
  const seen = new Set<string>();
  for (const piece of pieces) {
    const key = pieceKey(piece);
    if (seen.has(key)) continue;
    seen.add(key);
    parts.push(sweepPiece(piece, profile, size, ground));
  }
  if (parts.length === 0) return null;
  const whole = concatMeshes(parts);
  if (isSoundSolid(whole)) return { mesh: whole, droppedPieces: pieces.length - parts.length };
  const kept: IndexedMesh[] = [];
  for (const part of parts) {
    const next = concatMeshes([...kept, part]);
    if (isSoundSolid(next)) kept.push(part);
  }
  if (kept.length === 0) return null;
  return { mesh: concatMeshes(kept), droppedPieces: pieces.length - kept.length };
}

/** Each polygon of an area (rings grouped by `polygon`, outer first) as a filled solid; null when one fails. */
function areaSolids(lines: readonly BarrierLine[], height: number, ground?: GroundSampler): IndexedMesh | null {
  const byPolygon = new Map<number, number[][]>();
  for (const l of lines) {
    const rings = byPolygon.get(l.polygon ?? 0);
    if (rings) rings.push(l.points);
    else byPolygon.set(l.polygon ?? 0, [l.points]);
  }
  const solids: IndexedMesh[] = [];
  for (const [outer, ...holes] of byPolygon.values()) {
    const solid = areaSolid({ outer, holes }, height, ground);
    if (!solid) return null;
    solids.push(solid);
  }
  return solids.length ? concatMeshes(solids) : null;
}

/** Same stations (to the millimetre, either direction) = the same piece: a way that retraces itself. */
function pieceKey(piece: SweepPiece): string {
  const pts = piece.stations.map((s) => `${Math.round(s.x * 1000)},${Math.round(s.y * 1000)}`);
  const forward = pts.join(';'),
    backward = pts.slice().reverse().join(';');
  return forward < backward ? forward : backward;
}
