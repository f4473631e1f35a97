import type { ResponseWarning } from '../contract/response-schema.ts';
import type { TileGroupResult } from '../features/family.ts';
import { capThreshold } from '../geometry/trees/tree-cap.ts';

/** Output key under which tiles return the capped vegetation items of the instances group. */
export const CAPPED_TREES_KEY = 'instances:trees';

/**
 * `canopyMaxTrees` across a request (geometry/trees/tree-cap.ts): tiles return their trees with
 * cap ranks; this collects them and, when every tile is in, keeps the lowest `cap` ranks —
 * dropping a hash-uniform sample over the whole area, the same trees whatever the tiling.
 */
export class TreeCap {
  private readonly parts: TileGroupResult[] = [];

  constructor(private readonly cap: number) {}

  take(part: TileGroupResult | undefined): void {
    if (part && part.count > 0) this.parts.push(part);
  }

  /** The kept items comma-joined, their count, and how many the cap dropped. */
  finish(): { json: Uint8Array; count: number; dropped: number; total: number } {
    const threshold = capThreshold(this.parts.map((p) => p.ranks ?? new Float64Array(p.count)), this.cap);
    const slices: Uint8Array[] = [];
    let bytes = 0, total = 0;
    for (const p of this.parts) {
      const ranks = p.ranks!, ends = p.ends!;
      total += p.count;
      for (let k = 0; k < p.count; k++) {
        if (!(ranks[k] < threshold)) continue;
        const s = p.json.subarray(k === 0 ? 0 : ends[k - 1], ends[k]);
        slices.push(s);
        bytes += s.length;
      }
    }
    const json = new Uint8Array(bytes + Math.max(0, slices.length - 1));
    let pos = 0;
    slices.forEach((s, n) => {
      if (n > 0) json[pos++] = 44;
      json.set(s, pos);
      pos += s.length;
    });
    return { json, count: slices.length, dropped: total - slices.length, total };
  }
}

/** DESIGN.md `tree_cap_applied`: the cap cut trees. */
export function treeCapWarning(cap: number, total: number, dropped: number): ResponseWarning {
  return {
    code: 'tree_cap_applied',
    message: `canopyMaxTrees (${cap}) cut ${dropped} of ${total} trees and shrubs; the ones left out are spread evenly over the area, procedural before surveyed.`,
    details: { canopyMaxTrees: cap, trees: total, dropped },
  };
}

/** DESIGN.md `canopy_unavailable`: hybrid and canopy need canopy data the service does not have yet. */
export function canopyFallbackWarning(treeSource: string): ResponseWarning {
  return {
    code: 'canopy_unavailable',
    message: `treeSource ${treeSource} needs a canopy height model, which is not available yet; trees come from the standard source (surveyed trees plus procedural forest fill).`,
    details: { treeSource, usedTreeSource: 'standard' },
  };
}
