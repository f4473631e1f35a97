import type { ResponseWarning } from '../../contract/response-schema.ts';
import type { ContextRequest } from '../../contract/types.ts';
import { TILE_REPORTS, type TileGroupResult } from '../../plan/tile-result.ts';
import type { FamilyCollector, FamilySources } from '../family.ts';
import { capThreshold } from '../../geometry/trees/tree-cap.ts';

/**
 * The instances family's main-thread step: the tree cap over the whole request, then the canopy
 * coverage warnings. Trees reach the response only here, once every tile is in.
 */
export function collectTrees(req: ContextRequest, sources: FamilySources): FamilyCollector {
  const { canopyMaxTrees, treeSource } = req.settings;
  const cap = new TreeCap(canopyMaxTrees);
  const canopy = treeSource !== 'standard' ? new CanopyReport(treeSource, sources.canopy) : null;
  return {
    take(result) {
      cap.take(result.groups[TILE_REPORTS.cappedTrees]);
      canopy?.take(result.groups[TILE_REPORTS.canopy]);
    },
    finish() {
      const kept = cap.finish();
      const warnings: ResponseWarning[] = [];
      if (kept.dropped > 0) warnings.push(treeCapWarning(canopyMaxTrees, kept.total, kept.dropped));
      if (canopy) warnings.push(...canopy.warnings());
      return { chunks: [{ key: 'instances', json: kept.json, count: kept.count }], warnings };
    },
  };
}

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
    const threshold = capThreshold(
      this.parts.map((p) => p.ranks ?? new Float64Array(p.count)),
      this.cap,
    );
    const slices: Uint8Array[] = [];
    let bytes = 0,
      total = 0;
    for (const p of this.parts) {
      const ranks = p.ranks!,
        ends = p.ends!;
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

/** docs/design.md `tree_cap_applied`: the cap cut trees. */
export function treeCapWarning(cap: number, total: number, dropped: number): ResponseWarning {
  return {
    code: 'tree_cap_applied',
    message: `canopyMaxTrees (${cap}) cut ${dropped} of ${total} trees and shrubs: procedural ones go first (spread evenly over the area), then detected ones (the shortest first), surveyed ones last.`,
    details: { canopyMaxTrees: cap, trees: total, dropped },
  };
}

/**
 * `treeSource` hybrid and canopy across a request: tiles report how many of their coverage
 * samples (features/instances/canopy.ts) have canopy data; when all are in, the request is
 * covered, partly covered or not at all, and the warnings say so (docs/design.md codes).
 */
export class CanopyReport {
  private covered = 0;
  private total = 0;
  private box: [number, number, number, number] | null = null;
  private anyData = false;

  constructor(
    private readonly treeSource: 'hybrid' | 'canopy',
    private readonly configured: readonly unknown[] | null | undefined,
  ) {}

  take(part: TileGroupResult | undefined): void {
    if (!part) return;
    const r = JSON.parse(new TextDecoder().decode(part.json)) as {
      total: number;
      covered: number;
      anyData: boolean;
      uncovered: [number, number, number, number] | null;
    };
    this.anyData ||= r.anyData;
    this.covered += r.covered;
    this.total += r.total;
    if (r.uncovered) {
      const b = this.box,
        u = r.uncovered;
      this.box = b ? [Math.min(b[0], u[0]), Math.min(b[1], u[1]), Math.max(b[2], u[2]), Math.max(b[3], u[3])] : u;
    }
  }

  warnings(): ResponseWarning[] {
    const elsewhere = this.treeSource === 'hybrid' ? 'standard' : 'none';
    if (this.total === 0 && this.anyData) return []; // a polygon smaller than the sample lattice: data was read, no share to tell
    if (this.covered === 0)
      return [canopyUnavailableWarning(this.treeSource, this.configured && this.configured.length > 0 ? 'no_coverage' : 'not_configured')];
    if (this.covered >= this.total) return [];
    const share = Math.round((this.covered / this.total) * 1000) / 1000;
    const rest = elsewhere === 'standard' ? 'surveyed trees and procedural fill (the standard source)' : 'no trees';
    return [
      {
        code: 'canopy_partial',
        message: `Canopy data covers ${Math.round(share * 100)}% of the area: trees there are detected from it; the rest has ${rest}.`,
        details: {
          treeSource: this.treeSource,
          coveredShare: share,
          usedTreeSourceElsewhere: elsewhere,
          uncoveredBBox: this.box?.map((v) => Math.round(v * 1e6) / 1e6) ?? null,
        },
      },
    ];
  }
}

/**
 * docs/design.md `canopy_unavailable`: no canopy data for any of the area (none configured, or none
 * covering it). hybrid is answered from the standard source; canopy has no detected trees.
 */
export function canopyUnavailableWarning(treeSource: 'hybrid' | 'canopy', reason: 'not_configured' | 'no_coverage'): ResponseWarning {
  const why = reason === 'not_configured' ? 'no canopy height model is configured' : 'no configured canopy height model covers the area';
  const then = treeSource === 'hybrid' ? 'trees come from the standard source (surveyed trees plus procedural forest fill)' : 'there are no detected trees';
  return {
    code: 'canopy_unavailable',
    message: `treeSource ${treeSource}: ${why}; ${then}.`,
    details: { treeSource, usedTreeSource: treeSource === 'hybrid' ? 'standard' : 'none', reason },
  };
}
