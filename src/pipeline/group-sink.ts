/** Receives geometry as tiles finish; implemented by the streaming JSON writer (and by tests). */
export interface GroupSink {
  /**
   * Wants every group's chunks in the tiles' task order rather than as tiles finish: the tiles still
   * run in parallel, but a finished tile is held until the tiles planned before it have been
   * handed over, so the same request always gives the same item order (exports: byte-identical
   * files). The JSON answer leaves it unset and streams each tile as soon as it is done.
   */
  readonly ordered?: boolean;
  /**
   * Announces a group that will appear in the response (with an empty array if nothing is added).
   * `key` identifies it in later calls (two groups may share a `type`, e.g. topography as maps and meshes);
   * the items go into the array named after `geometryType` (meshes, elevationMaps, nodes, polylines).
   */
  declare(key: string, type: string, geometryType: string): void;
  /** Adds `count` comma-joined JSON items to a group (an export's meshes: one binary chunk, src/encode/mesh-binary.ts). */
  chunk(key: string, json: Uint8Array, count: number): void;
  /** No more chunks will come for this group. */
  done(key: string): void;
  /**
   * Back-pressure: null while the sink can take more, else a promise that resolves when it may be
   * asked again. The request's next tiles do not start meanwhile (the JSON answer: while more than
   * its bound waits for a slow client; src/server/answer-backlog.ts).
   */
  whenRoom?(): Promise<void> | null;
}
