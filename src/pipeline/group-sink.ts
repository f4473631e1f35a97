/** Receives geometry as tiles finish; implemented by the streaming JSON writer (and by tests). */
export interface GroupSink {
  /**
   * Announces a group that will appear in the response (with an empty array if nothing is added).
   * `key` identifies it in later calls (two groups may share a `type`, e.g. topography as maps and meshes);
   * the items go into the array named after `geometryType` (meshes, elevationMaps, nodes, polylines).
   */
  declare(key: string, type: string, geometryType: string): void;
  /** Adds `count` comma-joined JSON items to a group. */
  chunk(key: string, json: Uint8Array, count: number): void;
  /** No more chunks will come for this group. */
  done(key: string): void;
}
