import { projectFlat } from '../../frame/local-frame.ts';
import { validFootprints } from '../../geometry/footprint-repair.ts';
import { isBuildingPart } from '../../geometry/buildings/building-groups.ts';
import { undergroundReason } from '../../geometry/buildings/tags/index.ts';
import { clipPolylineToBox } from '../../geometry/clip-polyline.ts';
import { surfaceAreasFromFeatures, SURFACE_AREA_LAYERS } from '../../geometry/surfaces/classify/index.ts';
import { drapeLine, resolveOverlaps, surfaceMeshes, surfaceOutlines, type DrapedLine } from '../../geometry/surfaces/assemble/index.ts';
import type { SurfaceLine } from '../../geometry/surfaces/types.ts';
import type { Footprint } from '../../geometry/types.ts';
import { JsonBytesWriter } from '../../encode/json-bytes.ts';
import { writeMeshJson } from '../../encode/mesh-json.ts';
import { writePolylineJson } from '../../encode/polyline-json.ts';
import { OSM_ATTRIBUTION } from '../../pipeline/attributions.ts';
import type { OsmFeature } from '../../sources/osm/types.ts';
import type { FeatureFamily, TileContext } from '../family.ts';
import { roadSurfacesForTile } from './roads.ts';
import { seaAreas, SEA_AREAS_DEFAULTS, type Coastline } from '../../geometry/surfaces/sea/index.ts';

/**
 * Around the tile, metres: the ground of a tile depends on roads and junctions up to about one
 * road width past its edge; reading this far makes neighbouring tiles compute the same junctions,
 * so pieces cut at the shared edge meet exactly.
 */
const MARGIN_METRES = 100;

/**
 * The ground (issue 8): roads as areas with junctions (geometry/surfaces/roads), mapped areas by
 * kind (geometry/surfaces/classify), resolved into non-overlapping pieces with the buildings cut
 * out (geometry/surfaces/assemble), laid on the terrain. Ground is owned by area: each tile builds
 * exactly its own square, so pieces of one road or park in two tiles meet at the tile edge and no
 * piece is built twice. Outputs `surface` meshes and/or `surfaceLines` (centerlines, outlines).
 */
export const surfacesFamily: FeatureFamily = {
  name: 'surface',
  wanted: (task) => task.groups.includes('surface'),
  build(tile, out) {
    const plan = tile.task.surface;
    let t = performance.now();
    const features = tile.source.query(tile.lonLatBBox(MARGIN_METRES), [...new Set([...SURFACE_AREA_LAYERS, 'building_part' as const])]);
    const roads = roadSurfacesForTile(features, tile, MARGIN_METRES);
    const landCover = surfaceAreasFromFeatures(features.filter((f) => f.kind === 'area'), tile.frame);
    const sea = seaAreas(coastlines(tile), { outer: squareRing(tile), holes: [] });
    const clip: Footprint = { outer: squareRing(tile), holes: [] };
    const pieces = resolveOverlaps([...roads.areas, ...landCover, ...sea], { cutOut: buildingFootprints(features, tile), clip });
    out.timings.surface = (out.timings.surface ?? 0) + performance.now() - t;
    t = performance.now();
    const drape = { ground: tile.ground, drape: plan.drape };
    if (plan.meshes) {
      const meshes = surfaceMeshes(pieces, drape);
      const w = new JsonBytesWriter(1 << 16);
      meshes.forEach((m, n) => {
        if (n > 0) w.byte(44);
        tile.toOutput(m.mesh.positions);
        writeMeshJson(w, m.mesh, m.descriptor, tile.task.output.indexed);
      });
      out.groups.surface = { count: meshes.length, json: w.take() };
    }
    if (plan.centerlines || plan.outlines) {
      const lines: DrapedLine[] = [];
      if (plan.centerlines) for (const line of clippedLines(roads.centerlines, tile)) lines.push(drapeLine(line, drape));
      if (plan.outlines) lines.push(...surfaceOutlines(pieces, drape));
      const w = new JsonBytesWriter(1 << 14);
      lines.forEach((l, n) => {
        if (n > 0) w.byte(44);
        tile.toOutput(l.vertices);
        writePolylineJson(w, l.vertices, l.closed, l.descriptor);
      });
      out.groups.surfaceLines = { count: lines.length, json: w.take() };
    }
    out.timings.surfaceEncode = (out.timings.surfaceEncode ?? 0) + performance.now() - t;
    out.attributions.push(OSM_ATTRIBUTION);
  },
};

function squareRing({ bbox: b }: TileContext): number[] {
  return [b.minX, b.minY, b.maxX, b.minY, b.maxX, b.maxY, b.minX, b.maxY];
}

/**
 * OSM maps the sea only by `natural=coastline` ways (geometry/surfaces/sea decides which side of
 * them the tile lies on); they are few, so they are read as far around the tile as the sea rule looks (1 km).
 */
function coastlines(tile: TileContext): Coastline[] {
  const out: Coastline[] = [];
  for (const f of tile.source.query(tile.lonLatBBox(SEA_AREAS_DEFAULTS.nearDistance), ['water'])) {
    if (f.kind === 'line' && f.line && f.tags.natural === 'coastline') out.push({ id: f.id, points: projectFlat(tile.frame, f.line) });
  }
  return out;
}

/** Footprints of the buildings standing on the tile's ground (outlines and parts), cut out of every piece. */
function buildingFootprints(features: readonly OsmFeature[], tile: TileContext): Footprint[] {
  const out: Footprint[] = [];
  for (const f of features) {
    if ((f.layer !== 'building' && f.layer !== 'building_part') || f.kind !== 'area' || !f.polygons) continue;
    if (f.tags.building === 'construction' || undergroundReason(f.tags)) continue; // a building site is ground (classify)
    if (isBuildingPart(f.tags) && minHeightAboveGround(f.tags)) continue; // a part that floats leaves the ground under it
    for (const rings of f.polygons) {
      out.push(...validFootprints({ outer: projectFlat(tile.frame, rings[0]), holes: rings.slice(1).map((r) => projectFlat(tile.frame, r)) }));
    }
  }
  return out;
}

function minHeightAboveGround(tags: Record<string, string>): boolean {
  const v = parseFloat(tags.min_height ?? tags['building:min_level'] ?? '0');
  return Number.isFinite(v) && v > 0;
}

/** Centerlines are owned by area like the pieces: each tile returns the parts inside its square. */
function clippedLines(lines: readonly SurfaceLine[], tile: TileContext): SurfaceLine[] {
  const out: SurfaceLine[] = [];
  for (const line of lines) {
    for (const part of clipPolylineToBox(line.points, line.closed, tile.bbox)) out.push({ ...line, points: part.points, closed: part.closed });
  }
  return out;
}

