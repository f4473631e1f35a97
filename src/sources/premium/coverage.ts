/**
 * Where a dataset has buildings: the union of its footprints grown by COVERAGE_MARGIN metres,
 * simplified, kept as lon/lat polygons so a request can tell which datasets cover it without
 * reading their buildings. Footprints are added in batches and the running union is simplified
 * after each, so memory follows the outline of the covered area, not the number of buildings.
 */
import { ClipType, Clipper, EndType, FillRule, JoinType, PolyTree64, type Path64, type Paths64 } from 'clipper2-ts';
import { polygonsOf } from './footprint.ts';
import { localMetres, type LocalMetres } from './local-metres.ts';
import type { LonLatPolygons } from './surface-codec.ts';

export const COVERAGE_MARGIN = 30;
/** Largest distance (m) simplification may move the coverage outline; it stays outside the footprints by MARGIN − this. */
const SIMPLIFY = 5;
const BATCH = 2000;

export class CoverageBuilder {
  private frame: LocalMetres | null = null;
  private union: Paths64 = [];
  private batch: Paths64 = [];

  /** Adds one footprint (lon/lat polygons). */
  add(polygons: LonLatPolygons): void {
    for (const polygon of polygons) {
      const outer = polygon[0];
      if (!outer || outer.length < 6) continue;
      this.frame ??= localMetres(outer[0], outer[1]);
      const path: Path64 = [];
      for (let i = 0; i < outer.length; i += 2) {
        const [x, y] = this.frame.toXY(outer[i], outer[i + 1]);
        path.push({ x: Math.round(x), y: Math.round(y) });
      }
      // holes are left out: a courtyard is covered by the dataset as much as the roof around it
      this.batch.push(Clipper.area(path) < 0 ? path.reverse() : path);
    }
    if (this.batch.length >= BATCH) this.flush();
  }

  private flush(): void {
    if (this.batch.length === 0) return;
    const grown = Clipper.inflatePaths(this.batch, COVERAGE_MARGIN, JoinType.Round, EndType.Polygon, 2, 1);
    this.batch = [];
    const merged = Clipper.union(this.union, grown, FillRule.NonZero);
    this.union = Clipper.simplifyPaths(merged, SIMPLIFY, true);
  }

  /** The coverage as lon/lat polygons (empty when no footprint was added). */
  finish(): LonLatPolygons {
    this.flush();
    const frame = this.frame;
    if (!frame || this.union.length === 0) return [];
    const tree = new PolyTree64();
    Clipper.booleanOpWithPolyTree(ClipType.Union, this.union, null, tree, FillRule.NonZero);
    return polygonsOf(tree, (x, y) => frame.toLonLat(x, y));
  }
}
