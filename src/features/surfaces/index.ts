import { clipPolylineToBox } from '../../geometry/clip-polyline.ts';
import { surfaceAreasFromFeatures, SURFACE_AREA_LAYERS } from '../../geometry/surfaces/classify/index.ts';
import { drapeLine, resolveOverlaps, surfaceMeshes, surfaceOutlines, type DrapedLine } from '../../geometry/surfaces/assemble/index.ts';
import type { SurfaceLine } from '../../geometry/surfaces/types.ts';
import type { Footprint } from '../../geometry/types.ts';
import { JsonBytesWriter } from '../../encode/json-bytes.ts';
import { writePolylineJson } from '../../encode/polyline-json.ts';
import { OSM_ATTRIBUTION } from '../../sources/attributions.ts';
import { groupSpec, type OutputSpec } from '../../contract/groups.ts';
import { planOf, type FeatureFamily, type TileContext } from '../family.ts';
import { encodeMeshes } from '../encode-meshes.ts';
import { ROAD_READ_METRES, roadSurfacesForTile } from './roads.ts';
import { buildingCutOuts } from './building-cut-outs.ts';
import { fillerContext } from './filler.ts';
import { FILLER_READ_METRES, pavedZone } from '../../geometry/surfaces/filler/paved-zone.ts';
import { collectSeaReports, seaUndecidedReport, tileSea } from './sea.ts';
import { TILE_REPORTS } from '../../plan/tile-result.ts';
import { clipAreas } from '../../geometry/crop/clip-areas.ts';
import { clipPolylineToPolygon } from '../../geometry/crop/clip-polyline.ts';

/** What the ground family returns: meshes (`surface` group) and/or draped linework (`surfaceLines`). */
export interface SurfacePlan {
  meshes: boolean;
  centerlines: boolean;
  outlines: boolean;
  /** Lay the ground on the terrain (false with disableSurfaceProjection: flat pieces at their lowest terrain). */
  drape: boolean;
}

const SURFACE_OUTPUTS: readonly OutputSpec[] = groupSpec('surface')!.outputs;

/** Areas and buildings are read this far around the tile (the lon/lat box of a local square is not exact). */
const EDGE_PAD_METRES = 2;

const AREA_LAYERS = SURFACE_AREA_LAYERS.filter((l) => l !== 'highway' && l !== 'building');
/** Buildings are read as far as they decide the filler's kind (geometry/surfaces/filler). */
const BUILDING_LAYERS = ['building' as const, 'building_part' as const];

/**
 * The ground (docs/ground.md): roads as areas with junctions (geometry/surfaces/roads), mapped
 * areas by kind (geometry/surfaces/classify), resolved into non-overlapping pieces with the
 * buildings cut out (geometry/surfaces/assemble), laid on the terrain. Ground is owned by area:
 * each tile builds exactly its own square, so pieces of one road or park in two tiles meet at the
 * tile edge and no piece is built twice. Outputs `surface` meshes and/or `surfaceLines`
 * (centerlines, outlines).
 */
export const surfacesFamily: FeatureFamily<SurfacePlan> = {
  name: 'surface',
  group: 'surface',
  // docs/spec.md: `meshes` gives the surface group; centerlines and/or outlines give draped polylines in surfaceLines
  outputs: (s) => SURFACE_OUTPUTS.filter((o) => (o.geometryType === 'meshes' ? s.surfaceTypes.includes('meshes') : s.surfaceTypes.some((t) => t !== 'meshes'))),
  plan: ({ settings: s }) => ({
    meshes: s.surfaceTypes.includes('meshes'),
    centerlines: s.surfaceTypes.includes('centerlines'),
    outlines: s.surfaceTypes.includes('outlines'),
    drape: !s.disableSurfaceProjection,
  }),
  collect: collectSeaReports,
  build(tile, out) {
    const plan = planOf(surfacesFamily, tile.task);
    if (!plan) throw new Error('a surface task planned without the family plans (src/features/index.ts planTasks)');
    let t = performance.now();
    const lap = (stage: string) => {
      const now = performance.now();
      out.timings[stage] = (out.timings[stage] ?? 0) + now - t;
      t = now;
    };
    // roads shape the ground as far as their junctions reach past the tile (roads.ts); areas and
    // buildings only where they overlap it (reading those around too doubled the features decoded)
    const features = [
      ...tile.source.query(tile.lonLatBBox(ROAD_READ_METRES), ['highway']),
      ...tile.source.query(tile.lonLatBBox(EDGE_PAD_METRES), AREA_LAYERS),
    ];
    const buildings = tile.source.query(tile.lonLatBBox(FILLER_READ_METRES), BUILDING_LAYERS);
    lap('surfaceRead');
    const roads = roadSurfacesForTile(features, tile);
    lap('surfaceRoads');
    const landCover = surfaceAreasFromFeatures(
      [...features, ...buildings].filter((f) => f.kind === 'area'),
      tile.frame,
    );
    const { areas: sea, undecided } = tileSea(tile, { outer: squareRing(tile), holes: [] });
    if (undecided) out.groups[TILE_REPORTS.seaUndecided] = seaUndecidedReport();
    const clip: Footprint = { outer: squareRing(tile), holes: [] };
    const cutOut = buildingCutOuts(buildings, tile.frame);
    const pavedFiller = pavedZone(fillerContext(features, cutOut, tile.frame), tile.bbox);
    lap('surfaceAreas');
    const resolved = resolveOverlaps([...roads.areas, ...landCover, ...sea], { cutOut, clip, pavedFiller });
    lap('surfaceAssemble');
    // cropScene: the pieces cut to the polygon (outlines follow them); the rest of the ground is unchanged
    const pieces = tile.crop ? clipAreas(resolved, tile.crop) : resolved;
    if (tile.crop) lap('surfaceCrop');
    const drape = { ground: tile.ground, drape: plan.drape };
    if (plan.meshes) {
      // the ground lies on the terrain inside the tile: nothing for the terrain to reach under
      out.groups.surface = encodeMeshes(tile, out, surfaceMeshes(pieces, drape), false);
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
    lap('surfaceMeshEncode');
    out.attributions.push(OSM_ATTRIBUTION);
  },
};

function squareRing({ bbox: b }: TileContext): number[] {
  return [b.minX, b.minY, b.maxX, b.minY, b.maxX, b.maxY, b.minX, b.maxY];
}

/** Centerlines are owned by area like the pieces: each tile returns the parts inside its square. */
function clippedLines(lines: readonly SurfaceLine[], tile: TileContext): SurfaceLine[] {
  const out: SurfaceLine[] = [];
  for (const line of lines) {
    for (const part of clipPolylineToBox(line.points, line.closed, tile.bbox)) {
      if (!tile.crop) {
        out.push({ ...line, points: part.points, closed: part.closed });
        continue;
      }
      for (const p of clipPolylineToPolygon(part.points, part.closed, tile.crop)) out.push({ ...line, points: p.points, closed: p.closed });
    }
  }
  return out;
}
