/**
 * Faces of one part lying in one plane and overlapping. Blocks of one LoD2 building are often each
 * a closed solid, and where a taller block stands against a lower one their walls overlap in one
 * plane without sharing corners (the lower wall covers only part of the taller one), facing
 * opposite ways; a surface may also be given twice with its points in another order. Per plane the
 * faces are cut against each other in the plane (Clipper2 on a 0.1 mm grid): what only faces one
 * way stays, facing that way, and what is covered both ways is inside the building and goes.
 */
import { ClipType, Clipper, EndType, FillRule, JoinType, PolyTree64, type Path64, type Paths64, type PolyPath64 } from 'clipper2-ts';
import type { InputRole, PremiumSurface } from './input.ts';
import { newellNormal } from './plane-triangles.ts';

const GRID = 1e4;
/** Normals within about 0.06° and planes within 2 mm are one plane. */
const COS_TOLERANCE = 1 - 5e-7;
const OFFSET_TOLERANCE = 2e-3;
/** Overlaps smaller than this (m²) are touching edges, not faces covering each other. */
const MIN_OVERLAP = 1e-4;
/** Half the width of the slivers taken away (grid units: 1 mm). */
const OPENING = 10;
/** How far (grid units) a corner is looked for around a point of the result. */
const SNAP = 3;

interface Planar {
  normal: [number, number, number];
  offset: number;
}

/** The surfaces with overlapping coplanar faces cut against each other; `planes` counts the planes changed. */
export function cutCoplanarOverlaps(surfaces: readonly PremiumSurface[]): { surfaces: PremiumSurface[]; planes: number } {
  const planes = surfaces.map(planeOf);
  const group = surfaces.map((_, i) => i);
  const find = (i: number): number => (group[i] === i ? i : (group[i] = find(group[i])));
  for (let i = 0; i < surfaces.length; i++) {
    const a = planes[i];
    if (!a) continue;
    for (let j = i + 1; j < surfaces.length; j++) {
      const b = planes[j];
      if (!b) continue;
      const dot = a.normal[0] * b.normal[0] + a.normal[1] * b.normal[1] + a.normal[2] * b.normal[2];
      if (Math.abs(dot) >= COS_TOLERANCE && Math.abs(a.offset - Math.sign(dot) * b.offset) <= OFFSET_TOLERANCE) group[find(j)] = find(i);
    }
  }
  const members = new Map<number, number[]>();
  surfaces.forEach((_, i) => {
    const g = find(i);
    const list = members.get(g);
    if (list) list.push(i);
    else members.set(g, [i]);
  });
  const out: PremiumSurface[] = [];
  let changed = 0;
  for (const list of members.values()) {
    const cut =
      list.length > 1
        ? cutPlane(
            list.map((i) => surfaces[i]),
            planes[list[0]]!,
          )
        : null;
    if (cut) {
      changed++;
      out.push(...cut);
    } else for (const i of list) out.push(surfaces[i]);
  }
  return { surfaces: changed ? out : [...surfaces], planes: changed };
}

function planeOf(surface: PremiumSurface): Planar | null {
  const [nx, ny, nz] = newellNormal(surface.rings);
  const len = Math.hypot(nx, ny, nz);
  if (!(len > 1e-9)) return null;
  const normal: [number, number, number] = [nx / len, ny / len, nz / len];
  const ring = surface.rings[0];
  let offset = 0;
  for (let i = 0; i < ring.length; i += 3) offset += ring[i] * normal[0] + ring[i + 1] * normal[1] + ring[i + 2] * normal[2];
  return { normal, offset: offset / (ring.length / 3) };
}

/** The faces of one plane cut against each other, or null when none overlaps another. */
function cutPlane(faces: PremiumSurface[], plane: Planar): PremiumSurface[] | null {
  const n = plane.normal;
  const a = Math.abs(n[0]) < 0.9 ? [1, 0, 0] : [0, 1, 0];
  const d = a[0] * n[0] + a[1] * n[1] + a[2] * n[2];
  const ul = Math.hypot(a[0] - d * n[0], a[1] - d * n[1], a[2] - d * n[2]);
  const u = [(a[0] - d * n[0]) / ul, (a[1] - d * n[1]) / ul, (a[2] - d * n[2]) / ul];
  const v = [n[1] * u[2] - n[2] * u[1], n[2] * u[0] - n[0] * u[2], n[0] * u[1] - n[1] * u[0]];
  // the original 3D point of every grid position, so corners keep their exact place (and weld with their neighbours)
  const original = new Map<string, number[]>();
  const sides: { paths: Paths64; area: number; roles: Map<InputRole, number> }[] = [
    { paths: [], area: 0, roles: new Map() },
    { paths: [], area: 0, roles: new Map() },
  ];
  for (const face of faces) {
    const [fx, fy, fz] = newellNormal(face.rings);
    const side = sides[fx * n[0] + fy * n[1] + fz * n[2] >= 0 ? 0 : 1];
    const paths = face.rings.map((ring) => {
      const path: Path64 = [];
      for (let i = 0; i < ring.length; i += 3) {
        const p = [ring[i], ring[i + 1], ring[i + 2]];
        const x = Math.round((p[0] * u[0] + p[1] * u[1] + p[2] * u[2]) * GRID),
          y = Math.round((p[0] * v[0] + p[1] * v[1] + p[2] * v[2]) * GRID);
        if (!original.has(`${x},${y}`)) original.set(`${x},${y}`, p);
        path.push({ x, y });
      }
      return path;
    });
    const area = Clipper.area(paths[0]);
    // every face counter-clockwise in the plane's own axes (its holes the other way), so a union adds them
    for (const path of paths) side.paths.push(area < 0 ? path.reverse() : path);
    const absArea = Math.abs(area) / (GRID * GRID);
    side.area += absArea;
    side.roles.set(face.role, (side.roles.get(face.role) ?? 0) + absArea);
  }
  const union = sides.map((s) => Clipper.union(s.paths, FillRule.NonZero));
  const areaOf = (paths: Paths64) => Math.abs(paths.reduce((sum, p) => sum + Clipper.area(p), 0)) / (GRID * GRID);
  const crossing = union[0].length && union[1].length ? areaOf(Clipper.intersect(union[0], union[1], FillRule.NonZero)) : 0;
  const repeated = sides.some((s, k) => s.area - areaOf(union[k]) > MIN_OVERLAP);
  if (crossing <= MIN_OVERLAP && !repeated) return null;
  const lift = (x: number, y: number): number[] => {
    // shrinking and growing back may move a corner by a grid step or two
    for (let r = 0; r <= SNAP; r++)
      for (let dx = -r; dx <= r; dx++)
        for (let dy = -r; dy <= r; dy++) {
          const p = original.get(`${x + dx},${y + dy}`);
          if (p) return p;
        }
    const s = x / GRID,
      t = y / GRID;
    return [0, 1, 2].map((k) => s * u[k] + t * v[k] + plane.offset * n[k]);
  };
  const out: PremiumSurface[] = [];
  sides.forEach((side, k) => {
    if (side.paths.length === 0) return;
    const difference = Clipper.difference(union[k], union[1 - k], FillRule.NonZero);
    // where the faces' edges differ by a hair, the difference has slivers and spikes as thin as that:
    // shrinking by a millimetre and growing back (mitred, so corners come back) takes them away
    const opened = Clipper.inflatePaths(Clipper.inflatePaths(difference, -OPENING, JoinType.Miter, EndType.Polygon), OPENING, JoinType.Miter, EndType.Polygon);
    const tree = new PolyTree64();
    Clipper.booleanOpWithPolyTree(ClipType.Union, opened, null, tree, FillRule.NonZero);
    const role = [...side.roles.entries()].sort((m, q) => q[1] - m[1])[0][0];
    for (const rings of polygonsOf(tree)) out.push({ role, rings: rings.map((ring) => ring.flatMap((p) => lift(p.x, p.y))) });
  });
  return out;
}

/** Polygons with holes of a poly tree (islands inside holes become polygons of their own). */
function polygonsOf(tree: PolyPath64): Path64[][] {
  const out: Path64[][] = [];
  const visit = (node: PolyPath64): void => {
    for (let i = 0; i < node.count; i++) {
      const outer = node.child(i);
      const polygon = [outer.polygon ?? []];
      for (let k = 0; k < outer.count; k++) {
        const hole = outer.child(k);
        polygon.push(hole.polygon ?? []);
        visit(hole);
      }
      if (polygon[0].length >= 3) out.push(polygon);
    }
  };
  visit(tree);
  return out;
}
