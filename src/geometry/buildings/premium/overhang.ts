/**
 * Roofs reaching past their walls. LoD2 roofs fitted to lidar often overhang the walls (eaves) as
 * single sheets; a sheet has no thickness, so the part cannot be a closed solid with it. When the
 * part does not close otherwise, every roof face is cut to the outline of the part's ground
 * surfaces seen from above (the walls stand on that outline), new corners lying in the roof's own
 * plane, so wall tops meet roof edges again.
 */
import { Clipper, EndType, FillRule, JoinType, type Path64, type Paths64 } from 'clipper2-ts';
import type { PremiumSurface } from './input.ts';
import { newellNormal } from './plane-triangles.ts';

const GRID = 1e4;
/** A roof within this distance (grid units: 1 cm) of the outline does not overhang: its edge and the walls differ by noise. */
const NOISE = 100;

/** The surfaces with roofs cut to the ground outline, or null when there is no ground surface or nothing overhangs. */
export function trimOverhangs(surfaces: readonly PremiumSurface[]): PremiumSurface[] | null {
  const toPath = (ring: readonly number[]): Path64 => {
    const path: Path64 = [];
    for (let i = 0; i < ring.length; i += 3) path.push({ x: Math.round(ring[i] * GRID), y: Math.round(ring[i + 1] * GRID) });
    return path;
  };
  const ground: Paths64 = [];
  for (const s of surfaces) {
    if (s.role !== 'floor') continue;
    const paths = s.rings.map(toPath);
    const reversed = Clipper.area(paths[0]) < 0;
    for (const p of paths) ground.push(reversed ? p.reverse() : p);
  }
  if (ground.length === 0) return null;
  const outline = Clipper.union(ground, FillRule.NonZero);
  const tolerated = Clipper.inflatePaths(outline, NOISE, JoinType.Miter, EndType.Polygon);
  let changed = false;
  const out: PremiumSurface[] = [];
  for (const s of surfaces) {
    if (s.role !== 'roof') {
      out.push(s);
      continue;
    }
    const [nx, ny, nz] = newellNormal(s.rings);
    const len = Math.hypot(nx, ny, nz);
    // a roof face seen edge-on from above cannot be cut in plan
    if (!(Math.abs(nz) > 0.05 * len)) {
      out.push(s);
      continue;
    }
    const paths = s.rings.map(toPath);
    const area = Math.abs(Clipper.area(paths[0]));
    const reversed = Clipper.area(paths[0]) < 0;
    const subject = paths.map((p) => (reversed ? [...p].reverse() : p));
    const inside = Math.abs(Clipper.intersect(subject, tolerated, FillRule.NonZero).reduce((sum, p) => sum + Clipper.area(p), 0));
    if (Math.abs(inside - area) <= 1e-4 * GRID * GRID) {
      out.push(s);
      continue;
    }
    changed = true;
    const cut = Clipper.intersect(subject, outline, FillRule.NonZero);
    if (cut.length === 0) continue;
    const ring0 = s.rings[0];
    const offset = (nx * ring0[0] + ny * ring0[1] + nz * ring0[2]) / len;
    const original = new Map<string, number[]>();
    for (const ring of s.rings)
      for (let i = 0; i < ring.length; i += 3)
        original.set(`${Math.round(ring[i] * GRID)},${Math.round(ring[i + 1] * GRID)}`, [ring[i], ring[i + 1], ring[i + 2]]);
    const lift = (x: number, y: number): number[] => original.get(`${x},${y}`) ?? [x / GRID, y / GRID, (offset * len - (nx * x) / GRID - (ny * y) / GRID) / nz];
    // each piece its own surface (holes of a cut roof are rare enough to give up on here: outer rings only)
    for (const piece of cut) if (Clipper.area(piece) > 0) out.push({ role: 'roof', rings: [piece.flatMap((p) => lift(p.x, p.y))] });
  }
  return changed ? out : null;
}
