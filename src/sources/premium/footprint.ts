/**
 * A building's footprint: its outline seen from above, the union of the horizontal projections of
 * all its surfaces (roofs, ground and any slanted wall), so overhanging roofs count and buildings
 * without a ground surface (common in LoD2 data) still get one. Vertical walls project to nothing.
 * Polygons are unioned on a 0.1 mm grid (Clipper2 works in integers).
 */
import { ClipType, Clipper, FillRule, PolyTree64, type Path64, type Paths64, type PolyPath64 } from 'clipper2-ts';
import { localMetres } from './local-metres.ts';
import type { LonLatPolygons } from './surface-codec.ts';

const GRID = 1e4;
/** Projected polygons smaller than this (m²) are walls seen edge-on. */
const MIN_AREA = 1e-4;

/** Outline from rings of flat lon, lat, z (each surface: outer first, then holes), as lon/lat polygons with holes. */
export function footprintOf(surfaces: readonly number[][][], origin: readonly [number, number]): LonLatPolygons {
  const frame = localMetres(origin[0], origin[1]);
  const paths: Paths64 = [];
  for (const rings of surfaces) {
    const projected = rings.map((ring) => {
      const path: Path64 = [];
      for (let i = 0; i < ring.length; i += 3) {
        const [x, y] = frame.toXY(ring[i], ring[i + 1]);
        path.push({ x: Math.round(x * GRID), y: Math.round(y * GRID) });
      }
      return path;
    });
    const area = Clipper.area(projected[0]) / (GRID * GRID);
    if (Math.abs(area) < MIN_AREA) continue;
    // seen from above a ground surface runs clockwise and a roof anticlockwise: turn every polygon
    // anticlockwise (its holes then run the other way) so the union adds them all
    for (const path of projected) paths.push(area < 0 ? path.reverse() : path);
  }
  if (paths.length === 0) return [];
  const tree = new PolyTree64();
  Clipper.booleanOpWithPolyTree(ClipType.Union, paths, null, tree, FillRule.NonZero);
  return polygonsOf(tree, (x, y) => frame.toLonLat(x / GRID, y / GRID));
}

/** Polygons with holes from a poly tree (islands inside holes become polygons of their own). */
export function polygonsOf(tree: PolyPath64, toLonLat: (x: number, y: number) => [number, number]): LonLatPolygons {
  const out: LonLatPolygons = [];
  const ring = (path: Path64 | null): number[] => {
    const flat: number[] = [];
    for (const p of path ?? []) flat.push(...toLonLat(p.x, p.y));
    return flat;
  };
  const visit = (node: PolyPath64): void => {
    for (let i = 0; i < node.count; i++) {
      const outer = node.child(i);
      const polygon = [ring(outer.polygon)];
      for (let k = 0; k < outer.count; k++) {
        const hole = outer.child(k);
        polygon.push(ring(hole.polygon));
        visit(hole);
      }
      if (polygon[0].length >= 6) out.push(polygon);
    }
  };
  visit(tree);
  return out;
}
