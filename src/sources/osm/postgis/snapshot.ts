/**
 * An in-memory OsmSource over regions read from the PostGIS store: the tile reads its own box in one
 * go before it starts (asynchronously), then the families run synchronously as on the SQLite store.
 * A read outside what was fetched — a coastline searched for far out, a bridge grown beyond the
 * box — is fetched on the spot through `fetchMore` (synchronous; sync-fetch.ts) and kept. Answers
 * equal the SQLite store's: the same exact 1e-7 degree box test, the same order.
 */
import type { LonLatBBox, OsmFeature, OsmLayer } from '../../../osm-model/feature.ts';
import type { BuildingGroupRef, OsmSource } from '../types.ts';
import type { StoredFeature } from './feature-rows.ts';
import { boxE7, type Region, type RegionRequest, type StoredGroup } from './postgis-store.ts';

export type FetchMore = (box: LonLatBBox, request: RegionRequest) => Region;

/** Told of every read: the layers asked for, or that building groups were. */
export type ReadObserver = (layers: readonly OsmLayer[], groups: boolean) => void;

/** Extra margin of a fetch made for a read outside the snapshot, so the next step of a growing search is covered too. */
const MISS_GROWTH = 0.5;

function contains(outer: LonLatBBox, inner: LonLatBBox): boolean {
  return outer.minLon <= inner.minLon && outer.minLat <= inner.minLat && outer.maxLon >= inner.maxLon && outer.maxLat >= inner.maxLat;
}

function meets(b7: readonly number[], q7: readonly number[]): boolean {
  return b7[0] <= q7[2] && b7[2] >= q7[0] && b7[1] <= q7[3] && b7[3] >= q7[1];
}

/** The box grown by a share of its size on every side, within the world. */
function grown(b: LonLatBBox, share: number): LonLatBBox {
  const dx = (b.maxLon - b.minLon) * share,
    dy = (b.maxLat - b.minLat) * share;
  return {
    minLon: Math.max(-180, b.minLon - dx),
    minLat: Math.max(-90, b.minLat - dy),
    maxLon: Math.min(180, b.maxLon + dx),
    maxLat: Math.min(90, b.maxLat + dy),
  };
}

export class OsmSnapshot implements OsmSource {
  private readonly covered: { box: LonLatBBox; layers: Set<OsmLayer> }[] = [];
  private readonly groupBoxes: LonLatBBox[] = [];
  private readonly features = new Map<string, StoredFeature>();
  private sorted: StoredFeature[] | null = [];
  private readonly groups = new Map<number, StoredGroup>();
  private readonly members = new Map<number, StoredFeature[]>();
  /** Reads answered from memory and fetched on demand, for the tile's timings. */
  readonly stats = { reads: 0, fetches: 0 };

  constructor(
    private readonly fetchMore?: FetchMore,
    private readonly observe?: ReadObserver,
  ) {}

  add(region: Region): void {
    if (region.layers.length > 0) this.covered.push({ box: region.box, layers: new Set(region.layers) });
    for (const s of region.features) {
      if (!this.features.has(s.feature.id)) {
        this.features.set(s.feature.id, s);
        this.sorted = null;
      }
    }
    if (region.groups) {
      this.groupBoxes.push(region.box);
      for (const g of region.groups.list) this.groups.set(g.gid, g);
      for (const [gid, list] of region.groups.members) this.members.set(gid, list);
    }
  }

  query(bbox: LonLatBBox, layers: readonly OsmLayer[]): OsmFeature[] {
    const { minLon, minLat, maxLon, maxLat } = bbox;
    if (![minLon, minLat, maxLon, maxLat].every(Number.isFinite)) throw new RangeError('OsmSnapshot.query: bbox must be finite');
    if (layers.length === 0 || minLon > maxLon || minLat > maxLat) return [];
    this.stats.reads++;
    this.observe?.(layers, false);
    const missing = layers.filter((l) => !this.covered.some((c) => c.layers.has(l) && contains(c.box, bbox)));
    if (missing.length > 0) this.fetch(bbox, { layers: missing, groups: false });
    const wanted = new Set(layers);
    const q7 = boxE7(bbox);
    const out: OsmFeature[] = [];
    for (const s of this.inOrder()) {
      if (wanted.has(s.feature.layer) && meets(s.bbox7, q7)) out.push({ ...s.feature });
    }
    return out;
  }

  buildingGroups(bbox: LonLatBBox): BuildingGroupRef[] {
    if (![bbox.minLon, bbox.minLat, bbox.maxLon, bbox.maxLat].every(Number.isFinite)) throw new RangeError('OsmSnapshot.buildingGroups: bbox must be finite');
    if (bbox.minLon > bbox.maxLon || bbox.minLat > bbox.maxLat) return [];
    this.stats.reads++;
    this.observe?.([], true);
    if (!this.groupBoxes.some((b) => contains(b, bbox))) this.fetch(bbox, { layers: [], groups: true });
    const q7 = boxE7(bbox);
    const out: BuildingGroupRef[] = [];
    for (const g of this.groups.values()) if (meets(g.bbox7, q7)) out.push({ gid: g.gid, rep: [g.rep[0], g.rep[1]] });
    return out.sort((a, b) => a.gid - b.gid);
  }

  /** Members of groups this snapshot listed (buildingGroups fetched them with the groups). */
  buildingGroupMembers(gids: readonly number[]): Map<number, OsmFeature[]> {
    const out = new Map<number, OsmFeature[]>();
    for (const gid of [...new Set(gids)].sort((a, b) => a - b)) {
      const list = this.members.get(gid);
      if (!list && !this.groups.has(gid)) throw new Error(`OsmSnapshot: building group ${gid} was not read with this snapshot`);
      if (list)
        out.set(
          gid,
          // as the SQLite store lists members: without the relation memberships a query attaches
          list.map(({ feature: { buildingRelation: _, ...member } }) => member),
        );
    }
    return out;
  }

  close(): void {}

  private fetch(bbox: LonLatBBox, request: RegionRequest): void {
    if (!this.fetchMore) throw new Error(`OsmSnapshot: a read outside the fetched box (${JSON.stringify(bbox)}) and nothing to fetch it with`);
    this.stats.fetches++;
    // a box reaching beyond the world (a search over everything) is fetched as asked, and covers it
    const box = grown(bbox, MISS_GROWTH);
    this.add({ ...this.fetchMore(box, request), box: contains(box, bbox) ? box : bbox });
  }

  private inOrder(): StoredFeature[] {
    this.sorted ??= [...this.features.values()].sort((a, b) => a.order - b.order);
    return this.sorted;
  }
}
