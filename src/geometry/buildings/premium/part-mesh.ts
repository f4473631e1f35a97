/**
 * One part of a premium building as a closed, outward triangle mesh: every surface triangulated in
 * its own plane, corners welded within a millimetre, T-junctions split, collapsed and repeated
 * triangles dropped, openings closed (a missing floor first of all), faces turned outwards, and the
 * triangles ordered roof, wall, floor, other. What could not be repaired is said in `notes`; the
 * part is never dropped for it.
 */
import { inspectMesh } from '../../mesh-checks.ts';
import type { IndexedMesh } from '../../types.ts';
import { closeOpenings } from './close-openings.ts';
import { cutCoplanarOverlaps } from './coplanar.ts';
import { SURFACE_ROLES, type InputRole, type PremiumSurface, type SurfaceRole } from './input.ts';
import { orientOutward } from './orient.ts';
import { trimOverhangs } from './overhang.ts';
import { planeTriangles } from './plane-triangles.ts';
import { dropDegenerate, normalLength, ROLE_FLOOR, ROLE_OTHER, ROLE_ROOF, ROLE_UNKNOWN, ROLE_WALL, type Soup } from './soup.ts';
import { splitTJunctions } from './t-junctions.ts';
import { SEPARATION, separateTouching } from './touching.ts';
import { WELD_TOLERANCE, weldPoints } from './weld.ts';

/** Triangle ranges of a mesh per surface role: [first triangle, triangle count]. */
export type SurfaceRanges = Record<SurfaceRole, [number, number]>;

export interface PartMesh {
  mesh: IndexedMesh;
  surfaces: SurfaceRanges;
  /** Lowest and highest z of the mesh. */
  minZ: number;
  maxZ: number;
  /** What was repaired or could not be (for `dataNotes`), without the part's name. */
  notes: string[];
  /** Whether the mesh passed the closed, outward, non-degenerate check. */
  sound: boolean;
}

const ROLE_INDEX: Record<InputRole, number> = { roof: ROLE_ROOF, wall: ROLE_WALL, floor: ROLE_FLOOR, other: ROLE_OTHER, unknown: ROLE_UNKNOWN };

/**
 * Null when no surface has any area (the caller says so). A part whose roofs reach past its ground
 * outline is built with its roofs cut back to that outline (overhang.ts): an overhanging sheet has
 * no thickness, and closing around it gives flaps and slivers of volume. The part as given is kept
 * when the cut one does not close, its roof would face down, or the cut took its highest point (a
 * mono-pitch roof whose high edge overhangs: the height is the file's).
 */
export function buildPartMesh(surfaces: readonly PremiumSurface[]): PartMesh | null {
  const trimmed = trimOverhangs(surfaces);
  const cut = trimmed ? repairPart(trimmed) : null;
  if (cut?.sound && roofFacesUp(cut) && Math.abs(cut.maxZ - highest(surfaces)) <= WELD_TOLERANCE) {
    cut.notes.unshift('roof overhangs cut back to the ground outline');
    return cut;
  }
  return repairPart(surfaces);
}

function highest(surfaces: readonly PremiumSurface[]): number {
  let top = -Infinity;
  for (const s of surfaces) for (const ring of s.rings) for (let i = 2; i < ring.length; i += 3) top = Math.max(top, ring[i]);
  return top;
}

/** Whether no roof triangle of the mesh faces down (steep faces may lean a little past vertical). */
function roofFacesUp(part: PartMesh): boolean {
  const p = part.mesh.positions,
    idx = part.mesh.indices;
  const [first, count] = part.surfaces.roof;
  for (let t = first; t < first + count; t++) {
    const a = 3 * idx[3 * t],
      b = 3 * idx[3 * t + 1],
      c = 3 * idx[3 * t + 2];
    const nz = (p[b] - p[a]) * (p[c + 1] - p[a + 1]) - (p[b + 1] - p[a + 1]) * (p[c] - p[a]);
    if (nz < -0.05 * normalLength(p, a, b, c)) return false;
  }
  return true;
}

function repairPart(surfaces: readonly PremiumSurface[]): PartMesh | null {
  const points: number[] = [];
  const triangles: number[] = [];
  const roles: number[] = [];
  const spans: SurfaceSpan[] = [];
  let flatSurfaces = 0;
  const cleaned = surfaces.map((s) => ({ role: s.role, rings: s.rings.map(withoutRepeats).filter((r) => r.length >= 9) })).filter((s) => s.rings.length > 0);
  const coplanar = cutCoplanarOverlaps(cleaned);
  for (const surface of coplanar.surfaces) {
    const rings = surface.rings;
    const local = planeTriangles(rings);
    if (!local) {
      flatSurfaces++;
      continue;
    }
    const base = points.length / 3;
    for (const ring of rings) for (const v of ring) points.push(v);
    spans.push({ point: base, points: points.length / 3 - base, tri: triangles.length / 3, tris: local.length / 3 });
    for (const i of local) triangles.push(base + i);
    for (let t = 0; t < local.length; t += 3) roles.push(ROLE_INDEX[surface.role]);
  }
  if (triangles.length === 0) return null;
  const welded = weldPoints(points);
  const shared = dropSharedSurfaces(spans, welded.index, triangles, roles);
  const split = splitTJunctions(
    welded.positions,
    triangles.map((i) => welded.index[i]),
    roles,
  );
  const soup: Soup = { positions: welded.positions, triangles: split.triangles, roles: split.roles };
  const dropped = dropDegenerate(soup);
  const openings = closeOpenings(soup);
  // a filled opening can repeat a face or leave a collapsed triangle at a pinch: drop them again
  dropDegenerate(soup);
  const touching = separateTouching(soup);
  const orientation = orientOutward(soup);
  resolveUnknownRoles(soup);
  const built = ordered(soup);
  const report = inspectMesh(built.mesh);
  const notes: string[] = [];
  if (flatSurfaces) notes.push(`${flatSurfaces} surface(s) without area left out`);
  if (coplanar.planes) notes.push(`faces overlapping in ${coplanar.planes} plane(s) cut against each other (walls between blocks)`);
  if (shared) notes.push(`${shared} surface(s) shared by two blocks (inner walls) removed`);
  if (dropped.repeated) notes.push(`${dropped.repeated} triangle(s) of faces given twice removed`);
  if (openings.floors) notes.push(`no closed ground surface: ${openings.floors} floor(s) added`);
  if (openings.roofs) notes.push(`${openings.roofs} opening(s) at the top closed as roof`);
  if (openings.others) notes.push(`${openings.others} other opening(s) closed`);
  if (openings.unfilled) notes.push(`${openings.unfilled} opening(s) could not be closed`);
  if (touching) notes.push(`the solid touches itself along ${touching} edge(s): the blocks there are kept ${SEPARATION * 1000} mm apart`);
  if (orientation.nonManifold) notes.push(`${orientation.nonManifold} edge(s) shared by more than two faces`);
  if (orientation.conflicts) notes.push(`faces could not all be turned outwards (${orientation.conflicts} edge(s))`);
  const sound = report.closed && report.degenerate === 0 && report.nonFinite === 0 && report.volume > 0;
  if (!sound) {
    notes.push(
      `not a closed solid after repair (${report.openEdges} open edge(s), ${report.repeatedEdges} repeated edge(s), ${report.degenerate} degenerate triangle(s)${report.volume > 0 ? '' : ', no enclosed volume'})`,
    );
  }
  let minZ = Infinity,
    maxZ = -Infinity;
  for (let i = 2; i < built.mesh.positions.length; i += 3) {
    minZ = Math.min(minZ, built.mesh.positions[i]);
    maxZ = Math.max(maxZ, built.mesh.positions[i]);
  }
  return { mesh: built.mesh, surfaces: built.surfaces, minZ, maxZ, notes, sound };
}

/** A ring without points repeated within the weld tolerance of the one before (they weld into one anyway, and confuse the triangulation). */
function withoutRepeats(ring: readonly number[]): number[] {
  const out: number[] = [];
  const near = (i: number, j: number) => Math.hypot(ring[i] - out[j], ring[i + 1] - out[j + 1], ring[i + 2] - out[j + 2]) <= WELD_TOLERANCE;
  for (let i = 0; i + 2 < ring.length; i += 3) {
    if (out.length > 0 && near(i, out.length - 3)) continue;
    out.push(ring[i], ring[i + 1], ring[i + 2]);
  }
  while (out.length >= 6 && Math.hypot(out[0] - out[out.length - 3], out[1] - out[out.length - 2], out[2] - out[out.length - 1]) <= WELD_TOLERANCE)
    out.length -= 3;
  return out;
}

/** Where a surface's points and triangles start in the part's lists, and how many. */
interface SurfaceSpan {
  point: number;
  points: number;
  tri: number;
  tris: number;
}

/**
 * Surfaces with the same corners after welding, in pairs: the wall two blocks of one building
 * share, each block a closed solid of its own (common in LoD2 data). Dropping both merges the
 * blocks into one solid, however each was triangulated. Removes their triangles in place and
 * returns how many surfaces went; of an odd number of copies one stays.
 */
function dropSharedSurfaces(spans: SurfaceSpan[], index: Int32Array, triangles: number[], roles: number[]): number {
  const byCorners = new Map<string, number[]>();
  spans.forEach((span, s) => {
    const corners = new Set<number>();
    for (let i = span.point; i < span.point + span.points; i++) corners.add(index[i]);
    const key = [...corners].sort((a, b) => a - b).join(',');
    const list = byCorners.get(key);
    if (list) list.push(s);
    else byCorners.set(key, [s]);
  });
  const drop = new Uint8Array(roles.length);
  let count = 0;
  for (const list of byCorners.values()) {
    if (list.length < 2) continue;
    for (const s of list.slice(list.length % 2)) {
      count++;
      drop.fill(1, spans[s].tri, spans[s].tri + spans[s].tris);
    }
  }
  if (count === 0) return 0;
  let w = 0;
  for (let t = 0; t < roles.length; t++) {
    if (drop[t]) continue;
    triangles[3 * w] = triangles[3 * t];
    triangles[3 * w + 1] = triangles[3 * t + 1];
    triangles[3 * w + 2] = triangles[3 * t + 2];
    roles[w++] = roles[t];
  }
  triangles.length = 3 * w;
  roles.length = w;
  return count;
}

/** Surfaces without semantics take the role their face's direction says: up roof, down floor, else wall. */
function resolveUnknownRoles(soup: Soup): void {
  const p = soup.positions,
    t3 = soup.triangles;
  for (let t = 0; t < soup.roles.length; t++) {
    if (soup.roles[t] !== ROLE_UNKNOWN) continue;
    const a = 3 * t3[3 * t],
      b = 3 * t3[3 * t + 1],
      c = 3 * t3[3 * t + 2];
    const ux = p[b] - p[a],
      uy = p[b + 1] - p[a + 1],
      vx = p[c] - p[a],
      vy = p[c + 1] - p[a + 1];
    const nz = ux * vy - uy * vx;
    const len = normalLength(p, a, b, c);
    soup.roles[t] = nz > 0.5 * len ? ROLE_ROOF : nz < -0.5 * len ? ROLE_FLOOR : ROLE_WALL;
  }
}

/** The mesh with only the vertices used, triangles grouped by role in SURFACE_ROLES' order. */
function ordered(soup: Soup): { mesh: IndexedMesh; surfaces: SurfaceRanges } {
  const remap = new Int32Array(soup.positions.length / 3).fill(-1);
  const positions: number[] = [];
  const indices: number[] = [];
  const surfaces = {} as SurfaceRanges;
  SURFACE_ROLES.forEach((role, r) => {
    const first = indices.length / 3;
    for (let t = 0; t < soup.roles.length; t++) {
      if (soup.roles[t] !== r) continue;
      for (let k = 0; k < 3; k++) {
        const v = soup.triangles[3 * t + k];
        if (remap[v] < 0) {
          remap[v] = positions.length / 3;
          positions.push(soup.positions[3 * v], soup.positions[3 * v + 1], soup.positions[3 * v + 2]);
        }
        indices.push(remap[v]);
      }
    }
    surfaces[role] = [first, indices.length / 3 - first];
  });
  return { mesh: { positions: Float64Array.from(positions), indices: Uint32Array.from(indices) }, surfaces };
}
