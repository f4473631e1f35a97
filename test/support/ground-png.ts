import sharp from 'sharp';
import type { BBox } from '../../src/geometry/types.ts';
import type { SurfaceKind, SurfaceMesh } from '../../src/geometry/surfaces/types.ts';

/**
 * A picture of the ground from above for a person to look at (issue 8, "ground gallery"): every
 * triangle of every surface mesh filled with its kind's colour (`descriptor.type`), north up, on a
 * plain background where no surface is — the buildings' cut-outs and anything outside the clip.
 * Rasterised here into a raw RGBA buffer (pixel centres inside a triangle are filled, so pieces
 * that share an edge leave no seam), then encoded by sharp.
 *
 * @example
 * const png = await renderSurfacePng(surfaceMeshes(pieces, { drape: false }), tileBBox, 2, GROUND_COLOURS);
 * writeFileSync('ground.png', png);
 */

export type Rgb = readonly [number, number, number];

/** Map-like colours per kind (roads dark, pavements light, green for vegetation, blue for water). */
export const GROUND_COLOURS: Record<SurfaceKind, Rgb> = {
  asphalt: [90, 90, 96],
  roadwayIntersection: [70, 70, 80],
  roadwayArea: [110, 110, 118],
  pavement: [196, 190, 180],
  water: [110, 165, 220],
  farmland: [236, 222, 160],
  grass: [160, 205, 120],
  manicuredGrass: [120, 200, 100],
  forest: [60, 130, 70],
  garden: [150, 210, 150],
  sand: [240, 225, 170],
  rock: [170, 160, 150],
  pitch: [100, 180, 130],
  helipad: [200, 120, 200],
  construction: [200, 180, 140],
  buildingConstruction: [210, 160, 120],
  shrubbery: [110, 160, 90],
};

export interface GroundPngOptions {
  /** Where no surface is (building cut-outs, outside the clip). Default light grey. */
  background?: Rgb;
  /** Colour of a kind missing from the table. Default magenta, so it shows. */
  unknown?: Rgb;
}

/**
 * Renders meshes (local frame, x east, y north; z ignored) inside `bbox` at `pixelsPerMetre` to a
 * PNG of ceil(width · ppm) × ceil(height · ppm) pixels.
 */
export async function renderSurfacePng(
  meshes: readonly SurfaceMesh[],
  bbox: BBox,
  pixelsPerMetre: number,
  colours: Partial<Record<string, Rgb>> = GROUND_COLOURS,
  options: GroundPngOptions = {},
): Promise<Buffer> {
  const width = Math.max(1, Math.ceil((bbox.maxX - bbox.minX) * pixelsPerMetre));
  const height = Math.max(1, Math.ceil((bbox.maxY - bbox.minY) * pixelsPerMetre));
  const rgba = Buffer.alloc(width * height * 4);
  const background = options.background ?? [235, 235, 235];
  for (let i = 0; i < width * height; i++) {
    rgba[4 * i] = background[0];
    rgba[4 * i + 1] = background[1];
    rgba[4 * i + 2] = background[2];
    rgba[4 * i + 3] = 255;
  }
  const unknown = options.unknown ?? [255, 0, 255];
  for (const { mesh, descriptor } of meshes) {
    const colour = colours[String(descriptor.type)] ?? unknown;
    const p = mesh.positions,
      idx = mesh.indices;
    for (let t = 0; t < idx.length; t += 3) {
      const a = 3 * idx[t],
        b = 3 * idx[t + 1],
        c = 3 * idx[t + 2];
      fillTriangle(
        rgba,
        width,
        height,
        (p[a] - bbox.minX) * pixelsPerMetre,
        (bbox.maxY - p[a + 1]) * pixelsPerMetre,
        (p[b] - bbox.minX) * pixelsPerMetre,
        (bbox.maxY - p[b + 1]) * pixelsPerMetre,
        (p[c] - bbox.minX) * pixelsPerMetre,
        (bbox.maxY - p[c + 1]) * pixelsPerMetre,
        colour,
      );
    }
  }
  return sharp(rgba, { raw: { width, height, channels: 4 } })
    .png()
    .toBuffer();
}

/** Fills the pixels whose centres lie inside triangle (pixel coordinates, y down), top-left rule for shared edges. */
function fillTriangle(rgba: Buffer, width: number, height: number, ax: number, ay: number, bx: number, by: number, cx: number, cy: number, colour: Rgb): void {
  // orient so that the edge functions are positive inside
  let area = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
  if (area === 0) return;
  if (area < 0) {
    [bx, by, cx, cy] = [cx, cy, bx, by];
    area = -area;
  }
  const x0 = Math.max(0, Math.floor(Math.min(ax, bx, cx))),
    x1 = Math.min(width - 1, Math.ceil(Math.max(ax, bx, cx)));
  const y0 = Math.max(0, Math.floor(Math.min(ay, by, cy))),
    y1 = Math.min(height - 1, Math.ceil(Math.max(ay, by, cy)));
  const edge = (px: number, py: number, qx: number, qy: number, x: number, y: number) => (qx - px) * (y - py) - (qy - py) * (x - px);
  // an edge owns the pixel centres exactly on it when it is a top or left edge (no double fill, no gap)
  const owns = (px: number, py: number, qx: number, qy: number) => (py === qy && qx < px) || qy < py;
  const bias0 = owns(bx, by, cx, cy) ? 0 : -1e-12,
    bias1 = owns(cx, cy, ax, ay) ? 0 : -1e-12,
    bias2 = owns(ax, ay, bx, by) ? 0 : -1e-12;
  for (let y = y0; y <= y1; y++) {
    const py = y + 0.5;
    for (let x = x0; x <= x1; x++) {
      const px = x + 0.5;
      if (edge(bx, by, cx, cy, px, py) + bias0 < 0 || edge(cx, cy, ax, ay, px, py) + bias1 < 0 || edge(ax, ay, bx, by, px, py) + bias2 < 0) continue;
      const k = 4 * (y * width + x);
      rgba[k] = colour[0];
      rgba[k + 1] = colour[1];
      rgba[k + 2] = colour[2];
      rgba[k + 3] = 255;
    }
  }
}
