import type { Footprint } from '../types.ts';
import type { RoofShape, RoofSpec } from './build-part.ts';

/** Everything the builder needs about one building or part, decided from its tags and the request defaults. */
export interface BuildingSpec {
  /** Top of the building including the roof, metres above its ground. */
  height: number;
  /** Bottom of the walls (min_height), metres above its ground. */
  minHeight: number;
  /** Top of the walls = where the roof starts. */
  wallHeight: number;
  levels: number | null;
  /** Where the height came from: height, levels, default (or `outline …` when inherited). */
  heightSource: string;
  roof: RoofSpec;
  /** Whether roof:shape was tagged. */
  roofTagged: boolean;
  /** Colours and materials for the descriptor (only those known). */
  appearance: Record<string, string>;
  /** Tag values that were ignored as nonsense, for the descriptor. */
  notes: string[];
}

export interface SpecDefaults {
  defaultLevels: number;
  defaultLevelHeight: number;
  defaultRoofType: RoofShape;
}

/** Temporary simple reading of the Simple 3D Buildings tags (LoD1 + default roof). */
export function buildingSpecFromTags(tags: Record<string, string>, d: SpecDefaults, _footprint: Footprint): BuildingSpec {
  const num = (v: string | undefined) => {
    if (v === undefined) return null;
    const m = /^\s*(\d+(?:[.,]\d+)?)\s*(m)?\s*$/i.exec(v);
    const n = m ? Number(m[1].replace(',', '.')) : NaN;
    return Number.isFinite(n) && n >= 0 && n < 1000 ? n : null;
  };
  const levels = num(tags['building:levels']);
  let height: number, heightSource: string;
  const tagged = num(tags.height);
  if (tagged && tagged > 0) { height = tagged; heightSource = 'height'; }
  else if (levels && levels > 0) { height = levels * d.defaultLevelHeight; heightSource = 'levels'; }
  else { height = d.defaultLevels * d.defaultLevelHeight; heightSource = 'default'; }
  let minHeight = num(tags.min_height) ?? 0;
  if (minHeight >= height) minHeight = 0;
  const shape = d.defaultRoofType;
  const roofHeight = shape === 'flat' ? 0 : Math.min(3, Math.max(0.5, (height - minHeight) / 2));
  const wallHeight = heightSource === 'height' ? Math.max(minHeight, height - roofHeight) : height;
  return {
    height: heightSource === 'height' ? height : height + roofHeight,
    minHeight,
    wallHeight,
    levels,
    heightSource,
    roof: { shape, height: roofHeight },
    roofTagged: tags['roof:shape'] !== undefined,
    appearance: {},
    notes: [],
  };
}
