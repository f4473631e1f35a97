import type { ResponseWarning } from '../../contract/response-schema.ts';
import { SEA_AREAS_DEFAULTS, seaAreasDecided } from '../../geometry/surfaces/sea/index.ts';
import type { SurfaceArea } from '../../geometry/surfaces/types.ts';
import type { Footprint } from '../../geometry/types.ts';
import { TILE_REPORTS, type TileGroupResult } from '../../plan/tile-result.ts';
import type { FamilyCollector } from '../family.ts';
import type { GroundSquare } from './ground-square.ts';
import { coastSearch, tileCoastlines } from './coastlines.ts';

/** Each farther search for coastline reads this many times as far as the one before. */
const GROWTH = 4;

/**
 * The sea of a tile (docs/ground.md "The sea"): from the coastlines within 1 km, and where part of
 * the tile lies farther than that from every coastline, from those within 4, 16, 64 … km, until
 * one decides it or the store's reach is exhausted (coastlines.ts FAR_COAST_REACH). The open sea
 * far from the coast is sea; with no coastline anywhere in the store the ground is land (an inland
 * extract). `undecided`: the store holds coastline but none within reach — the tile was left land
 * without knowing.
 */
export function tileSea(tile: GroundSquare, clip: Footprint): { areas: SurfaceArea[]; undecided: boolean } {
  let found = seaAreasDecided(tileCoastlines(tile), clip);
  if (!found.undecided) return found;
  const search = coastSearch(tile.source);
  if (!search.any) return { areas: found.areas, undecided: false };
  for (let reach: number = SEA_AREAS_DEFAULTS.nearDistance; found.undecided && reach < search.reach; ) {
    reach = Math.min(reach * GROWTH, search.reach);
    found = seaAreasDecided(tileCoastlines(tile, tile.frame, reach), clip, { nearDistance: reach });
  }
  return found;
}

/** The tile report of a tile whose sea could not be decided (TILE_REPORTS.seaUndecided). */
export function seaUndecidedReport(): TileGroupResult {
  return { count: 0, json: new Uint8Array() };
}

/** The ground family's main-thread step: one `sea_undecided` warning when any tile reported one. */
export function collectSeaReports(): FamilyCollector {
  let tiles = 0;
  return {
    take(result) {
      if (result.groups[TILE_REPORTS.seaUndecided]) tiles++;
    },
    finish() {
      const warnings: ResponseWarning[] = [];
      if (tiles > 0) {
        warnings.push({
          code: 'sea_undecided',
          message:
            'Part of the ground lies farther from every coastline in the OpenStreetMap data than the server looks, so whether it is land or open sea could not be told; it is shown as land.',
          details: { tiles },
        });
      }
      return { chunks: [], warnings };
    },
  };
}
