import type { LonLatBBox, OsmFeature, OsmLayer } from '../../osm-model/feature.ts';

/** A building as grouped at import: an outline with its parts, or a part standing alone. */
export interface BuildingGroupRef {
  gid: number;
  /** A point strictly inside the group's principal feature, [lon, lat]. */
  rep: [number, number];
}

/** Read side of the OSM store: a bbox query by layer, and buildings by group. */
export interface OsmSource {
  query(bbox: LonLatBBox, layers: readonly OsmLayer[]): OsmFeature[];
  /** Groups whose members' extent intersects `bbox` (cheap: no member is read). */
  buildingGroups(bbox: LonLatBBox): BuildingGroupRef[];
  /** Members of the given groups: per gid, the principal first, then its parts. */
  buildingGroupMembers(gids: readonly number[]): Map<number, OsmFeature[]>;
  /**
   * Names the state of the data: it changes whenever any feature may have changed (a new import,
   * an applied update). What is derived from the data and kept (the ground cache) is keyed by it.
   * Absent for sources that cannot tell (test fixtures): nothing derived from them is kept.
   */
  version?(): string;
  close(): void;
}
