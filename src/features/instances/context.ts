import { pointInRing } from '../../geometry/ring.ts';
import type { InstanceNode } from '../../geometry/instances/types.ts';
import type { OsmFeature } from '../../osm-model/feature.ts';
import type { TileContext } from '../family.ts';
import { createSite, siteKey, type Site } from './site.ts';

/** A built node, with its cap rank when it is vegetation (geometry/trees/tree-cap.ts). */
export interface Placed {
  node: InstanceNode;
  rank?: number;
}

/** What the instance builders of one tile share: the features read, the sites, placement helpers. */
export class InstanceTile {
  private readonly sites = new Map<string, Site>();
  /** Surveyed tree positions [lon, lat, …] that fill keeps its distance from (set before the fill runs). */
  surveyedTrees: number[] = [];

  private buildingList: readonly OsmFeature[] | null = null;

  /** `features`: every layer but buildings; `readBuildings` reads those (lazily, see site.ts). */
  constructor(
    readonly tile: TileContext,
    readonly features: readonly OsmFeature[],
    private readonly readBuildings: () => readonly OsmFeature[],
  ) {}

  buildings(): readonly OsmFeature[] {
    return (this.buildingList ??= this.readBuildings());
  }

  /** The fixed-frame site holding a lon/lat point. */
  siteAt(lon: number, lat: number): Site {
    const key = siteKey(lon, lat);
    let s = this.sites.get(key);
    if (!s) {
      s = createSite(
        lon,
        lat,
        this.features,
        () => this.buildings(),
        () => this.surveyedDiscs(lon, lat),
      );
      this.sites.set(key, s);
    }
    return s;
  }

  /** Whether this tile returns a node at a local point: in the polygon and owned (each object once). */
  takes(x: number, y: number): boolean {
    return pointInRing(x, y, this.tile.polygon) && this.tile.owns([x, y]);
  }

  /** Ground height at a local point (z = 0 without terrain). */
  groundAt(x: number, y: number): number {
    return this.tile.ground ? this.tile.ground(x, y) : 0;
  }

  /** Whether a lon/lat point lies in a building footprint (fixed frame: every request agrees). */
  inBuilding(lon: number, lat: number): boolean {
    const site = this.siteAt(lon, lat);
    const [x, y] = site.frame.toLocal(lon, lat);
    return site.buildings().blocked(x, y);
  }

  private surveyedDiscs(lon: number, lat: number): number[] {
    const frame = this.siteAt(lon, lat).frame;
    const out: number[] = [];
    for (let k = 0; k < this.surveyedTrees.length; k += 2) {
      const [x, y] = frame.toLocal(this.surveyedTrees[k], this.surveyedTrees[k + 1]);
      out.push(x, y, SURVEYED_CLEARANCE);
    }
    return out;
  }
}

/** Procedural plants keep this far from a surveyed tree, metres (= the fill's own minimum spacing). */
export const SURVEYED_CLEARANCE = 3;
