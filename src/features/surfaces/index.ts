import { clipPolylineToBox } from '../../geometry/clip-polyline.ts';
import { surfaceAreasFromFeatures, SURFACE_AREA_LAYERS } from '../../geometry/surfaces/classify/index.ts';
import { drapeLine, resolveOverlaps, surfaceMeshes, surfaceOutlines, type DrapedLine } from '../../geometry/surfaces/assemble/index.ts';
import type { SurfaceLine } from '../../geometry/surfaces/types.ts';
import type { BBox, Footprint } from '../../geometry/types.ts';
import { JsonBytesWriter } from '../../encode/json-bytes.ts';
import { writePolylineJson } from '../../encode/polyline-json.ts';
import { OSM_ATTRIBUTION } from '../../sources/attributions.ts';
import { groupSpec, type OutputSpec } from '../../contract/groups.ts';
import { planOf, type FeatureFamily, type TileContext } from '../family.ts';
import { encodeMeshes } from '../encode-meshes.ts';
import { ROAD_READ_METRES, roadSurfacesForTile } from './roads.ts';
import { buildingCutOuts } from './building-cut-outs.ts';
import type { BuildingGroupInput } from '../../geometry/buildings/group-layout.ts';
import type { SpecDefaults } from '../../geometry/buildings/building-spec.ts';
import type { RoofShape } from '../../geometry/buildings/roofs/types.ts';
import { bareGround } from '../../geometry/surfaces/assemble/bare-ground.ts';
import { deckLandings } from '../../geometry/surfaces/assemble/deck-landings.ts';
import { fillerBuildings, fillerContext } from './filler.ts';
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
  /** Lay the ground on the terrain (false with disableSurfaceProjection: only the mapped vertices, each on the terrain). */
  drape: boolean;
  /** The request's building defaults: where a building stands, cut out of the ground, follows its heights. */
  buildings: SpecDefaults;
}

const SURFACE_OUTPUTS: readonly OutputSpec[] = groupSpec('surface')!.outputs;

/** Areas and buildings are read this far around the tile (the lon/lat box of a local square is not exact). */
const EDGE_PAD_METRES = 2;

const AREA_LAYERS = SURFACE_AREA_LAYERS.filter((l) => l !== 'highway');

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
    buildings: { defaultLevels: s.defaultLevels, defaultLevelHeight: s.defaultLevelHeight, defaultRoofType: s.defaultRoofType as RoofShape },
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
    lap('surfaceRead');
    const roads = roadSurfacesForTile(features, tile);
    lap('surfaceRoads');
    const landCover = surfaceAreasFromFeatures(
      features.filter((f) => f.kind === 'area'),
      tile.frame,
    );
    const { areas: sea, undecided } = tileSea(tile, { outer: squareRing(tile), holes: [] });
    if (undecided) out.groups[TILE_REPORTS.seaUndecided] = seaUndecidedReport();
    const clip: Footprint = { outer: squareRing(tile), holes: [] };
    // the pieces of the tile's buildings that stand on the ground are cut out of it; the filler is
    // paved beside the buildings as far as they decide its kind (geometry/surfaces/filler)
    lap('surfaceAreas');
    const cutOut = buildingCutOuts(tileBuildingGroups(tile, EDGE_PAD_METRES), tile.frame, plan.buildings);
    lap('surfaceCutOuts');
    const around = fillerBuildings(tile.source.query(tile.lonLatBBox(FILLER_READ_METRES), ['building']), tile.frame);
    // the zone a metre beyond the tile: its sides are then nowhere on the tile's edge, where every
    // piece of the base ground along the edge would touch them (base-ground.ts splitFiller decides
    // the polygons apart from the zone's sides without a sweep); the split only reads it in the tile
    const pavedFiller = pavedZone(fillerContext(features, around, tile.frame), grownBox(tile.bbox, ZONE_MARGIN_METRES));
    lap('surfaceFillerZone');
    // where a deck runs at the ground's level its top is the ground: the ground under it is cut
    // there like under a building, but the terrain is not bared (the deck covers it)
    const landings = deckLandings(roads.areas, tile.ground ?? flatGround);
    lap('surfaceLandings');
    const resolved = resolveOverlaps([...roads.areas, ...landCover, ...sea], {
      cutOut: landings.length ? [...cutOut, ...landings] : cutOut,
      clip,
      pavedFiller,
    });
    lap('surfaceAssemble');
    // the ground covers the site, not the tile: the pieces cut to it (outlines follow them)
    const pieces = tile.site ? clipAreas(resolved, tile.site) : resolved;
    if (tile.site) lap('surfaceCrop');
    const drape = { ground: tile.ground, drape: plan.drape };
    if (plan.meshes) {
      // the ground lies on the terrain inside the tile: nothing for the terrain to reach under
      out.groups.surface = encodeMeshes(tile, out, surfaceMeshes(pieces, drape), false);
      // only the terrain mesh (build-tile.ts) reads it: a union of every building, not built for nothing
      if (tile.task.terrain?.meshes) {
        const bare = bareGround(cutOut, clip);
        out.bareGround = tile.site ? clipAreas([{ footprints: bare, descriptor: {} }], tile.site).flatMap((a) => a.footprints) : bare;
      }
    }
    if (plan.centerlines || plan.outlines) {
      const lines: DrapedLine[] = [];
      if (plan.centerlines) for (const line of clippedLines(roads.centerlines, tile)) lines.push(drapeLine(line, drape));
      if (plan.outlines) lines.push(...surfaceOutlines(pieces, drape));
      const w = new JsonBytesWriter(1 << 14, tile.task.output.decimals);
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

const ZONE_MARGIN_METRES = 1;

function grownBox(b: BBox, d: number): BBox {
  return { minX: b.minX - d, minY: b.minY - d, maxX: b.maxX + d, maxY: b.maxY + d };
}

/** The ground without terrain (docs/ground.md: flat at z = 0). */
const flatGround = () => 0;

/** Every building (outline with its parts) that meets the tile, whichever tile builds it. */
function tileBuildingGroups(tile: TileContext, padMetres: number): BuildingGroupInput[] {
  const refs = tile.source.buildingGroups(tile.lonLatBBox(padMetres));
  const members = tile.source.buildingGroupMembers(refs.map((g) => g.gid));
  const out: BuildingGroupInput[] = [];
  for (const g of refs) {
    const [principal, ...parts] = members.get(g.gid) ?? [];
    if (principal) out.push({ principal, parts, rep: g.rep });
  }
  return out;
}

function squareRing({ bbox: b }: TileContext): number[] {
  return [b.minX, b.minY, b.maxX, b.minY, b.maxX, b.maxY, b.minX, b.maxY];
}

/** Centerlines are owned by area like the pieces: each tile returns the parts inside its square and the site. */
function clippedLines(lines: readonly SurfaceLine[], tile: TileContext): SurfaceLine[] {
  const out: SurfaceLine[] = [];
  for (const line of lines) {
    for (const part of clipPolylineToBox(line.points, line.closed, tile.bbox)) {
      if (!tile.site) {
        out.push({ ...line, points: part.points, closed: part.closed });
        continue;
      }
      for (const p of clipPolylineToPolygon(part.points, part.closed, tile.site)) out.push({ ...line, points: p.points, closed: p.closed });
    }
  }
  return out;
}
