import { clipPolylineToBox } from '../../geometry/clip-polyline.ts';
import { drapeLine, surfaceMeshes, surfaceOutlines, type DrapedLine } from '../../geometry/surfaces/assemble/index.ts';
import type { RoadSurfaces } from '../../geometry/surfaces/roads/road-surfaces.ts';
import type { SurfaceArea, SurfaceLine } from '../../geometry/surfaces/types.ts';
import type { Footprint } from '../../geometry/types.ts';
import { JsonBytesWriter } from '../../encode/json-bytes.ts';
import { writePolylineJson } from '../../encode/polyline-json.ts';
import { OSM_ATTRIBUTION } from '../../sources/attributions.ts';
import { groundCacheAt } from '../../sources/ground-cache/store.ts';
import { groupSpec, type OutputSpec } from '../../contract/groups.ts';
import { planOf, type FeatureFamily, type TileContext } from '../family.ts';
import { encodeMeshes } from '../encode-meshes.ts';
import { buildingCutOuts } from './building-cut-outs.ts';
import type { SpecDefaults } from '../../geometry/buildings/building-spec.ts';
import type { RoofShape } from '../../geometry/buildings/roofs/types.ts';
import { bareGround } from '../../geometry/surfaces/assemble/bare-ground.ts';
import { collectSeaReports, seaUndecidedReport } from './sea.ts';
import { TILE_REPORTS } from '../../plan/tile-result.ts';
import { clipAreas } from '../../geometry/crop/clip-areas.ts';
import { clipPolylineToPolygon } from '../../geometry/crop/clip-polyline.ts';
import { buildingGroupsAround, EDGE_PAD_METRES, groundPieces, squareRing } from './ground-pieces.ts';
import { cachedGroundPieces } from './cached-ground.ts';

/** What the ground family returns: meshes (`surface` group) and/or draped linework (`surfaceLines`). */
export interface SurfacePlan {
  meshes: boolean;
  centerlines: boolean;
  outlines: boolean;
  /** Lay the ground on the terrain (false with disableSurfaceProjection: only the mapped vertices, each on the terrain). */
  drape: boolean;
  /** The request's building defaults: where a building stands, cut out of the ground, follows its heights. */
  buildings: SpecDefaults;
  /**
   * The ground cache (CITY_GROUND_CACHE); absent = every tile builds its ground itself. `fill`:
   * a tile whose cells are not all kept builds them (a request of at least GROUND_CACHE_FILL_KM2);
   * otherwise such a tile builds its own square as without a cache (a cell is ~0.2 km²: a small
   * request would pay for many times its area).
   */
  cache?: { path: string; maxBytes: number; fill: boolean };
}

/** Requests of at least this area (km²) fill the ground cache with the cells they meet. */
export const GROUND_CACHE_FILL_KM2 = 1;

const SURFACE_OUTPUTS: readonly OutputSpec[] = groupSpec('surface')!.outputs;

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
  plan: ({ settings: s, areaKm2 }, sources) => ({
    meshes: s.surfaceTypes.includes('meshes'),
    centerlines: s.surfaceTypes.includes('centerlines'),
    outlines: s.surfaceTypes.includes('outlines'),
    drape: !s.disableSurfaceProjection,
    buildings: { defaultLevels: s.defaultLevels, defaultLevelHeight: s.defaultLevelHeight, defaultRoofType: s.defaultRoofType as RoofShape },
    ...(sources.groundCache ? { cache: { ...sources.groundCache, fill: areaKm2 >= GROUND_CACHE_FILL_KM2 } } : {}),
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
    const ground = tileGround(tile, plan, lap);
    if (ground.seaUndecided) out.groups[TILE_REPORTS.seaUndecided] = seaUndecidedReport();
    const resolved = ground.pieces;
    const clip: Footprint = { outer: squareRing(tile.bbox), holes: [] };
    // the ground covers the site, not the tile: the pieces cut to it (outlines follow them)
    const pieces = tile.site ? clipAreas(resolved, tile.site) : resolved;
    if (tile.site) lap('surfaceCrop');
    const drape = { ground: tile.ground, drape: plan.drape };
    if (plan.meshes) {
      // the ground lies on the terrain inside the tile: nothing for the terrain to reach under
      out.groups.surface = encodeMeshes(tile, out, surfaceMeshes(pieces, drape), false);
      // only the terrain mesh (build-tile.ts) reads it: a union of every building, not built for nothing
      if (tile.task.terrain?.meshes) {
        const bare = bareGround(ground.cutOut ?? buildingCutOuts(buildingGroupsAround(tile, EDGE_PAD_METRES), tile.frame, plan.buildings), clip);
        out.bareGround = tile.site ? clipAreas([{ footprints: bare, descriptor: {} }], tile.site).flatMap((a) => a.footprints) : bare;
      }
    }
    if (plan.centerlines || plan.outlines) {
      const lines: DrapedLine[] = [];
      if (plan.centerlines) for (const line of clippedLines(ground.roads!.centerlines, tile)) lines.push(drapeLine(line, drape));
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

/**
 * The tile's resolved ground: from the ground cache where it serves (no terrain: the cached cells
 * are built on flat ground; no centerlines: those come from the roads as built for the tile), else
 * built for the tile's own square.
 */
function tileGround(
  tile: TileContext,
  plan: SurfacePlan,
  lap: (stage: string) => void,
): { pieces: SurfaceArea[]; seaUndecided: boolean; cutOut?: Footprint[]; roads?: RoadSurfaces } {
  if (plan.cache && !tile.ground && !plan.centerlines) {
    const cached = cachedGroundPieces(tile, plan.buildings, groundCacheAt(plan.cache.path, plan.cache.maxBytes), plan.cache.fill, lap);
    if (cached) return cached;
  }
  return groundPieces(tile, plan.buildings, lap);
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
