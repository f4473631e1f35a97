import { ClipType } from 'clipper2-ts';
import Flatbush from 'flatbush';
import type { BBox, Footprint, Ring } from '../../types.ts';
import { polylineLength } from '../../ring.ts';
import { booleanPieces, isAxisRectangle, pathsOf, piecePaths } from '../../planar/pieces.ts';
import { SURFACE_PRIORITY } from '../priority.ts';
import type { SurfaceArea } from '../types.ts';
import { clipChainToBox, clipSegment } from './clip.ts';
import { extendOpenEnds, joinCoastlines, type CoastChain, type Coastline } from './chains.ts';
import { closePiece, faceFinder, interiorPoint, partitionSquare, pointInFace, type Face } from './faces.ts';
import { nearestBoxPoint, nearestCoastSide, type SegmentFilter } from './nearest-side.ts';

export interface SeaAreasOptions {
  /** Way ends closer than this are joined (m). Default 0.01. */
  snap?: number;
  /**
   * Open coastline ends are extended straight on by this much (m), then on out of the square.
   * Keep it at most the margin the caller reads around the square. Default 1000.
   */
  extendOpenEnds?: number;
  /**
   * A square no coastline crosses is sea when the nearest coastline within this distance (m) has
   * it on its water side; with none that near it is land. Keep it at most the caller's margin.
   * Default 1000.
   */
  nearDistance?: number;
}

export const SEA_AREAS_DEFAULTS = { snap: 0.01, extendOpenEnds: 1000, nearDistance: 1000 } as const;

/** Probes are put this far (m) to either side of a coastline segment to find the faces it bounds. */
const PROBE_OFFSET = 0.003;
/** A probe is cast only where no other coastline segment comes this close (m) to its foot. */
const PROBE_CLEARANCE = 4 * PROBE_OFFSET;
/** Another segment whose ends lie this close (m) to a segment's line lies on that line. */
const COLLINEAR = 1e-6;
/** Clipped segments shorter than this (m) cast no vote. */
const MIN_VOTING_LENGTH = 0.01;
/** Pieces shorter than this (m) do not cut (they cut off less than the millimetre grid keeps). */
const MIN_PIECE_LENGTH = 0.001;
/** A square the coastline comes this close to (m) without cutting it is decided at a point inside. */
const TOUCHING = 0.01;

/**
 * The sea inside a tile square, from the `natural=coastline` ways around it (OSM maps the sea
 * only by its coastline; without this the sea comes out as inferred grass).
 *
 * `coastlines`: every coastline way whose box meets the square plus a margin (1 km), in the local
 * frame and in the direction OSM draws them (land on the LEFT, water on the RIGHT). `clip`: the
 * tile square (another clip is allowed: the sea is built on its bounding box and cut to it).
 *
 * How:
 * 1. Ways are joined end to start into chains (ends within `snap`, 1 cm, are one point); a chain
 *    coming back to its start is a ring. Open ends (the extract cut the coast) are extended
 *    straight on (chains.ts), so every open chain crosses the square from edge to edge.
 * 2. The chains are cut to the square (keeping their direction); each piece is closed outside the
 *    square into a polygon and the square is split by them into faces (faces.ts).
 * 3. Each face is classified by the coastline that bounds it: probes 3 mm to the right of every
 *    coastline segment in the square vote "water" for the face they fall in, probes to the left
 *    vote "land" (weighted by length). No probe is cast where other coastline (or an extension)
 *    comes within 12 mm (a spike, where it could land on the far side), except a continuation
 *    along the same line. A face is water when it has water votes and no land vote at all, so
 *    broken data that contradicts itself (ways crossing, a way drawn the wrong way round) gives
 *    land: never water on the land side of a way, wherever that side is clear of other coastline
 *    for 12 mm (nearer, no probe is cast and the other votes decide). Islands
 *    (rings inside: land inside when counter-clockwise) are faces like any other and become holes
 *    of the sea.
 * 4. A face no coastline bounds (the whole square, when no coastline crosses it) is decided by the
 *    nearest coastline within `nearDistance`, measured from the square's edge (every way within the
 *    caller's margin of the square was read, so the answer is exact that far): water when the
 *    square lies on its right (at a vertex, in the sea's angle of the two segments). Consulted are
 *    the mapped coastline and the extensions of open ends within `nearDistance` (real breaks, which
 *    split the neighbouring squares); the extension of a farther end is not (the coast may go on
 *    beyond what was read). With no coastline that near we cannot tell and assume land, which is
 *    what inland tiles are; seaAreasDecided says so (`undecided`), and the ground family then looks
 *    farther (features/surfaces/sea.ts), so the open sea far from the coast is sea too.
 *
 * Neighbouring squares agree: a face's answer depends only on the coastline around it, and the
 * pieces cut at a shared edge meet at the same points (the cut is computed from the same segment).
 * Up to the millimetre grid: where the coast crosses a square's edge, the cut point is put on the
 * grid, which tilts the coast's segment by about a millimetre (a wedge under 1.5 mm × the length of
 * the segment's part in the square between a square's sea and the whole region's); where the coast
 * runs within a centimetre of a square's edge, the sliver of sea between them may be lost (Clipper2
 * drops near-degenerate thin triangles; resolveOverlaps drops everything under 5 cm wide anyway).
 * Not guaranteed: near the limit of `nearDistance` (a square's reach counts from its own edge, so
 * one square can be within reach where a smaller one inside it is not), and where broken data
 * contradicts itself (decided face by face).

 * Returns one `water` area per connected polygon of sea, priority SURFACE_PRIORITY.water,
 * descriptor `{type: 'water', natural: 'coastline', sea: true, id}` where `id` lists the coastline
 * ways bounding it (`way/1;way/2`, sorted) or is `'sea'` when none does. Footprints are valid
 * polygons on the millimetre grid (outer counter-clockwise, holes clockwise), inside `clip`.
 *
 * @example
 * const sea = seaAreas(coastlineWays.map((w) => ({ id: w.id, points: projectFlat(frame, w.line) })), tileSquare);
 */
export function seaAreas(coastlines: readonly Coastline[], clip: Footprint, options: SeaAreasOptions = {}): SurfaceArea[] {
  return seaAreasDecided(coastlines, clip, options).areas;
}

/**
 * seaAreas, and whether some part of the square was left land only because no coastline lies
 * within `nearDistance` of it (`undecided`): the caller may look farther (features/surfaces/sea.ts)
 * or say it could not tell.
 */
export function seaAreasDecided(
  coastlines: readonly Coastline[],
  clip: Footprint,
  options: SeaAreasOptions = {},
): { areas: SurfaceArea[]; undecided: boolean } {
  const snap = options.snap ?? SEA_AREAS_DEFAULTS.snap;
  const extend = options.extendOpenEnds ?? SEA_AREAS_DEFAULTS.extendOpenEnds;
  const nearDistance = options.nearDistance ?? SEA_AREAS_DEFAULTS.nearDistance;
  const box = boxOf(clip.outer);
  if (!box || !(box.maxX > box.minX) || !(box.maxY > box.minY)) return { areas: [], undecided: false };

  const mapped = joinCoastlines(coastlines, snap);
  const chains = extendOpenEnds(mapped, box, extend);

  // Pieces in the square, closed along its boundary; the square cut into faces by them.
  const closures: Ring[] = [];
  for (const c of chains) {
    for (const run of clipChainToBox(c.points, c.closed, box)) {
      if (polylineLength(run.points, run.closed) < MIN_PIECE_LENGTH) continue;
      const points = run.closed ? run.points : snapEnds(run.points, box);
      closures.push(closePiece(points, run.closed, box));
    }
  }
  const faces = partitionSquare(box, closures);

  // Votes: what lies right of the coast is water, left of it land. A probe is only cast where no
  // other coastline comes within PROBE_CLEARANCE of its foot (a spike or a thin wedge between two
  // segments would put it across the other segment, into the wrong face).
  const water = new Float64Array(faces.length),
    land = new Float64Array(faces.length);
  const ids = faces.map(() => new Set<string>());
  const reps: ([number, number] | null)[] = faces.map(() => null);
  const faceAt = faceFinder(faces);
  const cuts: { x0: number; y0: number; x1: number; y1: number; id: string | null }[] = [];
  for (const c of chains) {
    const p = c.points,
      n = p.length / 2;
    const segments = c.closed ? n : n - 1;
    for (let s = 0; s < segments; s++) {
      const e = (s + 1) % n;
      const cut = clipSegment(p[2 * s], p[2 * s + 1], p[2 * e], p[2 * e + 1], box);
      if (cut) cuts.push({ x0: cut[0], y0: cut[1], x1: cut[2], y1: cut[3], id: c.segmentIds[s] });
    }
  }
  const index = cuts.length ? new Flatbush(cuts.length) : null;
  if (index) {
    for (const q of cuts) index.add(Math.min(q.x0, q.x1), Math.min(q.y0, q.y1), Math.max(q.x0, q.x1), Math.max(q.y0, q.y1));
    index.finish();
  }
  // Any other segment near the foot blocks the probe (at that distance the grid cannot tell which
  // side of the foot it passes), except one running on along the probing segment's own line in its
  // direction: a continuation or a duplicate cannot come between a probe and its foot. A segment
  // running back along the same line blocks: a zero-width spike, whose probes would land on its
  // far side.
  const clear = (self: number, x: number, y: number) => {
    const q = cuts[self];
    for (const o of index!.search(x - PROBE_CLEARANCE, y - PROBE_CLEARANCE, x + PROBE_CLEARANCE, y + PROBE_CLEARANCE)) {
      const r = cuts[o];
      if (o === self || distanceToSegment(x, y, r) >= PROBE_CLEARANCE) continue;
      const sameWay = (r.x1 - r.x0) * (q.x1 - q.x0) + (r.y1 - r.y0) * (q.y1 - q.y0) > 0;
      if (sameWay && distanceToLine(r.x0, r.y0, q) <= COLLINEAR && distanceToLine(r.x1, r.y1, q) <= COLLINEAR) continue;
      return false;
    }
    return true;
  };
  // a loop, not forEach: a callback is a closure whose optimised code V8 drops at every full collection
  for (let self = 0; self < cuts.length; self++) {
    const q = cuts[self];
    const { x0, y0, x1, y1 } = q;
    const len = Math.hypot(x1 - x0, y1 - y0);
    if (len < MIN_VOTING_LENGTH) continue;
    const rx = ((y1 - y0) / len) * PROBE_OFFSET,
      ry = (-(x1 - x0) / len) * PROBE_OFFSET; // to the right
    const k = Math.min(16, Math.max(len >= 10 * PROBE_CLEARANCE ? 3 : 1, Math.ceil(len / 25)));
    const weight = len / k;
    for (let i = 0; i < k; i++) {
      const t = (i + 0.5) / k;
      const mx = x0 + t * (x1 - x0),
        my = y0 + t * (y1 - y0);
      if (!clear(self, mx, my)) continue;
      const wf = faceAt(mx + rx, my + ry);
      if (wf >= 0) {
        water[wf] += weight;
        if (q.id !== null) ids[wf].add(q.id);
        reps[wf] ??= [mx + rx, my + ry];
      }
      const lf = faceAt(mx - rx, my - ry);
      if (lf >= 0) land[lf] += weight;
    }
  }

  // Classification: votes, else the nearest coastline: mapped, or the extension of an end within
  // `nearDistance` of the square (a real break: had the coast gone on, the caller would have read
  // its continuation), which splits the neighbouring squares and must decide alike here. The
  // extension of an end farther away is not consulted: that end may be only where the ways read
  // stop, and the mapped coast within reach is complete.
  const consulted = trustedSegments(box, nearDistance);
  const sea: number[] = [];
  let undecided = false;
  faces.forEach((_, f) => {
    if (land[f] > 0) return;
    if (water[f] > 0) {
      sea.push(f);
      return;
    }
    const at = interiorPoint(faces[f].footprint);
    if (!at) return;
    let side = faces.length === 1 ? wholeSquareSide(chains, box, nearDistance, consulted) : undefined;
    if (side === undefined) side = nearestCoastSide(chains, at[0], at[1], nearDistance, consulted);
    if (side === null) undecided = true;
    if (side === 'water') {
      reps[f] = at;
      sea.push(f);
    }
  });
  if (sea.length === 0) return { areas: [], undecided };

  let polygons = booleanPieces(ClipType.Union, piecePaths(sea.map((f) => faces[f].footprint)), null);
  if (!isAxisRectangle(clip)) polygons = booleanPieces(ClipType.Intersection, piecePaths(polygons), pathsOf([clip]));
  const areas = polygons.map((footprint): SurfaceArea => {
    const used = new Set<string>();
    const face: Face = { footprint, box: boxOf(footprint.outer)! };
    for (const f of sea) {
      const r = reps[f];
      if (r && pointInFace(face, r[0], r[1])) for (const id of ids[f]) used.add(id);
    }
    const id = used.size ? [...used].sort().join(';') : 'sea';
    return { kind: 'water', priority: SURFACE_PRIORITY.water, footprints: [footprint], descriptor: { type: 'water', natural: 'coastline', sea: true, id } };
  });
  return { areas, undecided };
}

/** Mapped segments, and the extensions of open ends within `distance` of the box. */
function trustedSegments(box: BBox, distance: number): SegmentFilter {
  const near = (x: number, y: number) => Math.hypot(x - Math.min(box.maxX, Math.max(box.minX, x)), y - Math.min(box.maxY, Math.max(box.minY, y))) <= distance;
  return (c, s) => {
    if (c.segmentIds[s] !== null) return true;
    const p = c.points,
      n = p.length / 2;
    const end = s === 0 ? 1 : n - 2; // the mapped end the extension continues
    return near(p[2 * end], p[2 * end + 1]);
  };
}

/**
 * The side of the coast a square no coastline crosses lies on, decided at the square's point
 * nearest to the mapped coastline; undefined when that coastline comes within TOUCHING of the
 * square (then an inside point decides: the nearest point may lie in a speck of the other side
 * that a piece too short to cut, under MIN_PIECE_LENGTH, leaves at a corner).
 */
function wholeSquareSide(chains: readonly CoastChain[], box: BBox, nearDistance: number, uses: SegmentFilter): 'water' | 'land' | null | undefined {
  const near = nearestBoxPoint(chains, box, uses);
  if (!near) return null;
  if (near.distance > nearDistance) return null;
  if (near.distance < TOUCHING) return undefined;
  return nearestCoastSide(chains, near.x, near.y, nearDistance, uses);
}

function distanceToSegment(x: number, y: number, q: { x0: number; y0: number; x1: number; y1: number }): number {
  const dx = q.x1 - q.x0,
    dy = q.y1 - q.y0,
    l2 = dx * dx + dy * dy;
  const t = l2 > 0 ? Math.max(0, Math.min(1, ((x - q.x0) * dx + (y - q.y0) * dy) / l2)) : 0;
  return Math.hypot(x - q.x0 - t * dx, y - q.y0 - t * dy);
}

function distanceToLine(x: number, y: number, q: { x0: number; y0: number; x1: number; y1: number }): number {
  const dx = q.x1 - q.x0,
    dy = q.y1 - q.y0;
  return Math.abs(dx * (y - q.y0) - dy * (x - q.x0)) / Math.hypot(dx, dy);
}

function boxOf(ring: Ring): BBox | null {
  if (ring.length < 6) return null;
  let minX = Infinity,
    minY = Infinity,
    maxX = -Infinity,
    maxY = -Infinity;
  for (let i = 0; i < ring.length; i += 2) {
    minX = Math.min(minX, ring[i]);
    maxX = Math.max(maxX, ring[i]);
    minY = Math.min(minY, ring[i + 1]);
    maxY = Math.max(maxY, ring[i + 1]);
  }
  return { minX, minY, maxX, maxY };
}

/** A piece's ends exactly on the square's nearest edge (the cut is computed in floating point). */
function snapEnds(p: Ring, box: BBox): Ring {
  const out = p.slice();
  for (const k of [0, out.length - 2]) {
    const x = out[k],
      y = out[k + 1];
    const d = [Math.abs(x - box.minX), Math.abs(x - box.maxX), Math.abs(y - box.minY), Math.abs(y - box.maxY)];
    const m = Math.min(...d);
    if (m > 1e-6) continue; // an end inside the square (cannot happen once open ends are extended)
    if (m === d[0]) out[k] = box.minX;
    else if (m === d[1]) out[k] = box.maxX;
    else if (m === d[2]) out[k + 1] = box.minY;
    else out[k + 1] = box.maxY;
  }
  return out;
}

export type { Coastline, CoastChain };
