/**
 * Premium buildings in one tile, and what they do to the OSM buildings there
 * (src/geometry/buildings/premium-merge.ts has the rule). Only the datasets the request may use
 * (the plan's `premiumDatasets`) whose coverage meets the tile and the extent of the OSM buildings
 * it builds are read, so a tile outside every coverage reads no premium building at all.
 *
 * A premium building is built by the tile holding its interior point (or, when that point lies
 * outside the polygon, its first point in the polygon: geometry/anchor.ts), whole, never cut at a
 * seam or by an OSM building. It is built in the stable frame of that point and moved into the
 * request frame, like OSM buildings, and stands on the lowest ground under its footprint.
 */
import type Database from 'better-sqlite3';
import { projectFlat } from '../../frame/local-frame.ts';
import { mapPositionsInPlace } from '../../frame/stable-frame.ts';
import { featureAnchor } from '../../geometry/anchor.ts';
import type { BuildingMesh } from '../../geometry/buildings/from-osm.ts';
import { groupFrames } from '../../geometry/buildings/group-layout.ts';
import { buildPremiumBuilding } from '../../geometry/buildings/premium/building-meshes.ts';
import {
  boxesMeet,
  footprintInteriorPoint,
  lonLatBox,
  osmMergeDecision,
  overlapArea,
  type LonLatPolygons,
  type MergeDecision,
} from '../../geometry/buildings/premium-merge.ts';
import { pointInRing } from '../../geometry/ring.ts';
import { footprintGroundRange } from '../../geometry/terrain/ground-sampler.ts';
import type { Ring } from '../../geometry/types.ts';
import type { OsmFeature } from '../../osm-model/feature.ts';
import type { BuildingGroupRef } from '../../sources/osm/types.ts';
import { premiumMeshInput } from '../../sources/premium/mesh-input.ts';
import { preparedMeshes } from '../../sources/premium/prepared-meshes.ts';
import {
  buildingsByBid,
  datasetsCovering,
  footprintsInBox,
  premiumReader,
  type LonLatBox,
  type PremiumFootprint,
} from '../../sources/premium/request-reads.ts';
import { listDatasets, type PremiumDataset } from '../../sources/premium/store.ts';
import type { TileContext } from '../family.ts';

/** Merge decisions of this thread by OSM store, group and datasets (they do not depend on the request). */
const decided = new Map<string, MergeDecision>();
const DECIDED_MAX = 200_000;

/** The premium side of one tile's buildings. */
export interface TilePremium {
  /** What to do with an OSM building group (cached per group). */
  decide(gid: number, members: readonly OsmFeature[], rep: readonly [number, number]): MergeDecision;
  /** The premium buildings this tile owns, built and placed; `used` lists the datasets that gave a mesh. */
  build(): { meshes: BuildingMesh[]; used: PremiumDataset[] };
}

/**
 * The tile's premium context, or null when the request may use no premium dataset or none of
 * them covers the tile and the OSM buildings it builds (`osmExtent`, [minLon, minLat, maxLon, maxLat]).
 */
export function tilePremium(tile: TileContext, storePath: string | null, allowed: readonly string[], osmExtent: LonLatBox | null): TilePremium | null {
  if (!storePath || allowed.length === 0) return null;
  const db = premiumReader(storePath);
  if (!db) return null;
  const t = tile.lonLatBBox();
  let box: LonLatBox = [t.minLon, t.minLat, t.maxLon, t.maxLat];
  if (osmExtent) box = [Math.min(box[0], osmExtent[0]), Math.min(box[1], osmExtent[1]), Math.max(box[2], osmExtent[2]), Math.max(box[3], osmExtent[3])];
  const covering = new Set(datasetsCovering(db, box, new Set(allowed)));
  if (covering.size === 0) return null;
  return new PremiumTile(tile, db, covering, box);
}

class PremiumTile implements TilePremium {
  private readonly near: PremiumFootprint[];
  private readonly rows: Map<string, PremiumDataset>;
  private readonly decisions = new Map<number, MergeDecision>();
  private readonly groupMembers = new Map<number, { members: readonly OsmFeature[]; rep: readonly [number, number] }>();
  /** The datasets the decisions read, as imported (an import again changes it). */
  private readonly version: string;

  constructor(
    private readonly tile: TileContext,
    private readonly db: Database.Database,
    private readonly datasets: ReadonlySet<string>,
    private readonly box: LonLatBox,
  ) {
    this.near = footprintsInBox(db, box, datasets);
    this.rows = new Map(listDatasets(db).map((d) => [d.id, d]));
    this.version = [...datasets]
      .sort()
      .map((id) => `${id}@${this.rows.get(id)?.importedAt}`)
      .join(',');
  }

  /** Premium footprints whose box meets `box` (from the tile's first read when it holds the box). */
  private footprintsAround(box: LonLatBox): PremiumFootprint[] {
    const inside = box[0] >= this.box[0] && box[1] >= this.box[1] && box[2] <= this.box[2] && box[3] <= this.box[3];
    const list = inside ? this.near : footprintsInBox(this.db, box, this.datasets);
    return list.filter((p) => boxesMeet(p.box, box));
  }

  decide(gid: number, members: readonly OsmFeature[], rep: readonly [number, number]): MergeDecision {
    let d = this.decisions.get(gid);
    if (!d) {
      // the same in every request with the same datasets (premium-merge.ts): kept for the next ones
      const key = `${this.tile.task.storePath}|${gid}|${rep[0]},${rep[1]}|${this.version}`;
      d = decided.get(key);
      if (!d) {
        const polygons = memberPolygons(members);
        d = osmMergeDecision(
          polygons,
          this.footprintsAround(lonLatBox(polygons)).map((p) => p.footprint),
          rep,
        );
        if (decided.size >= DECIDED_MAX) decided.clear();
        decided.set(key, d);
      }
      this.decisions.set(gid, d);
      this.groupMembers.set(gid, { members, rep });
    }
    return d;
  }

  build(): { meshes: BuildingMesh[]; used: PremiumDataset[] } {
    const { frame, polygon } = this.tile;
    const owned: { p: PremiumFootprint; at: [number, number] }[] = [];
    for (const p of this.near) {
      const at = p.anchor ?? footprintInteriorPoint(p.footprint);
      if (!at) continue;
      const local = frame.toLocal(at[0], at[1]);
      const anchor = pointInRing(local[0], local[1], polygon) ? local : firstAnchor(p.footprint, this.tile);
      if (anchor && this.tile.owns(anchor)) owned.push({ p, at });
    }
    if (owned.length === 0) return { meshes: [], used: [] };
    const rows = this.rows;
    const used = new Map<string, PremiumDataset>();
    const meshes: BuildingMesh[] = [];
    const prepared = preparedMeshes(
      this.db,
      owned.map((o) => o.p.bid),
    );
    // buildings of a store imported before meshes were prepared there: built here
    const live = buildingsByBid(
      this.db,
      owned.filter((o) => !prepared.has(o.p.bid)).map((o) => o.p.bid),
    );
    for (const { p, at } of owned) {
      const dataset = rows.get(p.dataset);
      if (!dataset) continue;
      const frames = groupFrames(at, frame);
      const stored = live.get(p.bid);
      const built = prepared.get(p.bid)?.meshes ?? (stored ? buildPremiumBuilding(premiumMeshInput(stored, dataset, frames.stable)).meshes : []);
      if (built.length === 0) continue;
      const outers = p.footprint.map((rings) => projectFlat(frame, rings[0]));
      const ground = lowestGround(this.tile, outers);
      const boundary = outers.some((outer) => crossesBoundary(outer, polygon));
      const osm = this.replacedOsm(p.footprint, at);
      for (const m of built) {
        mapPositionsInPlace(frames.toRequest, m.mesh.positions);
        if (ground !== 0) for (let k = 2; k < m.mesh.positions.length; k += 3) m.mesh.positions[k] += ground;
        const d = m.descriptor;
        if (osm) {
          if (osm.tags.name) {
            d.osmName = osm.tags.name;
            if (d.buildingName === null) d.buildingName = osm.tags.name;
          }
          if (osm.tags.building) d.buildingType = osm.tags.building;
          d.replacesOsm = osm.id;
        }
        d.intersectsBoundary = boundary;
        if (ground !== 0) d.groundElevation = Math.round(ground * 1000) / 1000;
        meshes.push(m);
      }
      used.set(dataset.id, dataset);
    }
    return { meshes, used: [...used.values()] };
  }

  /**
   * The principal of the replaced OSM building that lies most under this premium footprint (its
   * name and type go into the premium building's descriptor), or null when it replaced none.
   */
  private replacedOsm(footprint: LonLatPolygons, at: readonly [number, number]): OsmFeature | null {
    const box = lonLatBox([footprint]);
    const refs: BuildingGroupRef[] = this.tile.source.buildingGroups({ minLon: box[0], minLat: box[1], maxLon: box[2], maxLat: box[3] });
    const unread = refs.filter((r) => !this.groupMembers.has(r.gid)).map((r) => r.gid);
    const read = unread.length ? this.tile.source.buildingGroupMembers(unread) : new Map<number, OsmFeature[]>();
    let best: OsmFeature | null = null,
      bestArea = 0;
    for (const ref of refs) {
      const members = this.groupMembers.get(ref.gid)?.members ?? read.get(ref.gid);
      if (!members?.length || this.decide(ref.gid, members, ref.rep).action !== 'replace') continue;
      const area = overlapArea(memberPolygons(members), footprint, at);
      if (area > bestArea || (area === bestArea && best && members[0].id < best.id)) {
        bestArea = area;
        best = members[0];
      }
    }
    return best;
  }
}

/** The polygons of a group's members, principal first (members without polygons give none). */
export function memberPolygons(members: readonly OsmFeature[]): LonLatPolygons[] {
  return members.map((m) => m.polygons ?? []);
}

/** A member with its polygons replaced by what the merge left of it. */
export function withPolygons(member: OsmFeature, polygons: LonLatPolygons): OsmFeature {
  return { ...member, polygons };
}

function firstAnchor(footprint: LonLatPolygons, tile: TileContext): [number, number] | null {
  for (const rings of footprint) {
    const a = featureAnchor(
      rings.map((r) => projectFlat(tile.frame, r)),
      tile.polygon,
    );
    if (a) return a;
  }
  return null;
}

/** The lowest ground under the outlines (0 without terrain): where the building's floor goes. */
function lowestGround(tile: TileContext, outers: readonly Ring[]): number {
  if (!tile.ground) return 0;
  let lowest = Infinity;
  for (const outer of outers) lowest = Math.min(lowest, footprintGroundRange(tile.ground, outer).min);
  return Number.isFinite(lowest) ? lowest : 0;
}

function crossesBoundary(outer: Ring, polygon: Ring): boolean {
  for (let k = 0; k < outer.length; k += 2) if (!pointInRing(outer[k], outer[k + 1], polygon)) return true;
  for (let k = 0; k < polygon.length; k += 2) if (pointInRing(polygon[k], polygon[k + 1], outer)) return true;
  return false;
}
