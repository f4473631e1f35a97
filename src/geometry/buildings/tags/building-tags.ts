import type { RoofShape } from '../roofs/types.ts';
import { parseLength } from '../../../osm-model/tag-values/length.ts';
import { parseLevels } from '../../../osm-model/tag-values/levels.ts';
import { parseAngle } from '../../../osm-model/tag-values/angle.ts';
import { parseRoofShape } from './roof-shape.ts';
import { parseDirection } from '../../../osm-model/tag-values/direction.ts';
import { parseOrientation } from './orientation.ts';
import { parseColour } from '../../../osm-model/tag-values/colour.ts';
import { parseMaterial } from '../../../osm-model/tag-values/material.ts';
import { defaultRoofHeight, roofHeightFromAngle } from './roof-height.ts';
import { parseMultiValued, type MultiValuePick } from '../../../osm-model/tag-values/multi-value.ts';
import { isBridgePart } from './placement.ts';

/**
 * What an OSM building (or building:part) says about its shape (Simple 3D Buildings), with the
 * request's defaults filling only what the data leaves open.
 *
 * Rules, in metres above the building's base ground:
 * - roof height: `roof:height`, else `roof:levels` × level height, else `roof:angle` over the
 *   footprint's half-width (whole width for a skillion), else a per-shape default (roof-height.ts);
 *   0 for a flat roof.
 * - min height (bottom of the walls): `min_height`, else `building:min_level` × level height, else 0.
 * - height (top of the roof): `height`; else `building:levels` (counted from the ground) × level
 *   height + roof height (so `roof:levels` add storeys on top); else min height + default levels ×
 *   level height + roof height (default storeys stand on what the data puts below them).
 * - wall height (where the roof starts) = height − roof height. A roof taller than the space
 *   between min height and height is shrunk to fit (a part that is all roof).
 * - Unusable values (negative, not a number, absurd, contradictory) are ignored, listed in
 *   `ignored`, and the next rule applies.
 * - Multi-values of the height tags (`min_height=5;5.5`, `height=12;14`, `building:levels=3;4`)
 *   are reduced to one number rather than dropped (osm-model/tag-values/multi-value.ts):
 *   `min_height` and `building:min_level` take the smallest, `height`, `building:levels`,
 *   `roof:height` and `roof:levels` the largest, so the block spans every value tagged. Each
 *   reduction is listed in `notes`. Other tags (`roof:angle`, directions, colours, materials)
 *   still refuse lists.
 * - A bridge (placement.ts `isBridgePart`) with neither `min_height` nor `building:min_level`
 *   stands on the ground like any part; `notes` says so.
 *
 * @example
 * parseBuildingTags({ building: 'yes', 'building:levels': '3', 'roof:shape': 'gabled' },
 *   { defaultLevels: 1, defaultLevelHeight: 4, defaultRoofType: 'flat', footprintHalfWidth: 5 });
 */

export interface BuildingTagDefaults {
  /** Storeys assumed when neither `height` nor `building:levels` is usable. */
  defaultLevels: number;
  /** Metres per storey, for levels and roof levels. */
  defaultLevelHeight: number;
  /** Roof shape when `roof:shape` is missing or unknown. */
  defaultRoofType: RoofShape;
  /**
   * Half the footprint's width (half the short side of its minimum bounding rectangle), for
   * roof:angle and default roof heights; a function is called only when a sloped roof needs it
   * (the rectangle costs more than all the tags of a flat-roofed building together).
   */
  footprintHalfWidth?: number | (() => number);
}

export type HeightSource = 'height' | 'levels' | 'default';
export type RoofHeightSource = 'roof:height' | 'roof:levels' | 'roof:angle' | 'default' | 'flat' | 'fitted';

export interface BuildingTags {
  /** Top of the building, roof included. */
  height: number;
  /** Bottom of the walls. */
  minHeight: number;
  /** Top of the walls, where the roof starts (height − roofHeight). */
  wallHeight: number;
  /** `building:levels`, `building:min_level`, `roof:levels` as tagged (null when missing or unusable). */
  levels: number | null;
  minLevel: number | null;
  roofLevels: number | null;
  roofHeight: number;
  /** `roof:angle` as tagged, degrees. */
  roofAngle: number | null;
  roofShape: RoofShape;
  /** False when the OSM shape was mapped onto a look-alike (e.g. half-hipped → gabled) or defaulted. */
  roofShapeExact: boolean;
  /** Compass degrees the roof faces (`roof:direction`). */
  roofDirection: number | null;
  roofOrientation: 'along' | 'across' | null;
  /** `#rrggbb` or null. */
  colours: { building: string | null; roof: string | null };
  materials: { building: string | null; roof: string | null };
  heightSource: HeightSource;
  roofHeightSource: RoofHeightSource;
  hasDefaultHeight: boolean;
  hasDefaultRoof: boolean;
  /** Tags present but unusable, as `key=value`: their defaults were used. */
  ignored: string[];
  /** How usable tags were read where it is not obvious (a multi-value reduced to one number, a bridge without a deck height). */
  notes: string[];
}

export function parseBuildingTags(tags: Readonly<Record<string, string>>, defaults: BuildingTagDefaults): BuildingTags {
  const r = new TagReader(tags);
  const lh = defaults.defaultLevelHeight;

  const shapeTag = r.read('roof:shape', parseRoofShape);
  const roofShape = shapeTag?.shape ?? defaults.defaultRoofType;
  const tagged = r.number('height', parseLength, 'largest', positive);
  const levels = r.number('building:levels', parseLevels, 'largest');
  const minLevel = r.number('building:min_level', parseLevels, 'smallest');
  const roofLevels = r.number('roof:levels', parseLevels, 'largest');
  const roofAngle = r.read('roof:angle', parseAngle);
  const roofHeightTag = r.number('roof:height', parseLength, 'largest');
  const minHeightTag = r.number('min_height', parseLength, 'smallest');

  let roofHeight: number;
  let roofHeightSource: RoofHeightSource;
  if (roofShape === 'flat') {
    roofHeight = 0;
    roofHeightSource = 'flat';
  } else if (roofHeightTag !== null) {
    roofHeight = roofHeightTag;
    roofHeightSource = 'roof:height';
  } else if (roofLevels !== null && roofLevels > 0) {
    roofHeight = roofLevels * lh;
    roofHeightSource = 'roof:levels';
  } else {
    const h = defaults.footprintHalfWidth;
    const halfWidth = typeof h === 'function' ? h() : h;
    if (roofAngle !== null && halfWidth !== undefined && halfWidth > 0) {
      roofHeight = roofHeightFromAngle(roofShape, roofAngle, halfWidth);
      roofHeightSource = 'roof:angle';
    } else {
      roofHeight = defaultRoofHeight(roofShape, halfWidth, lh);
      roofHeightSource = 'default';
    }
  }

  // Bottom of the walls first: default storeys stand on top of whatever the data says lies below.
  let minHeight = 0;
  if (minHeightTag !== null) minHeight = minHeightTag;
  else if (minLevel !== null) minHeight = minLevel * lh;
  const minimumKey = minHeightTag !== null ? 'min_height' : 'building:min_level';
  if (minHeightTag === null && minLevel === null && isBridgePart(tags)) {
    r.notes.push('bridge without min_height or building:min_level: built from the ground');
  }

  let height: number;
  let wallHeight: number;
  let heightSource: HeightSource;
  if (tagged !== null) {
    height = tagged;
    heightSource = 'height';
    if (minHeight >= height) minHeight = r.drop(minimumKey);
    if (roofHeight > height - minHeight) {
      roofHeight = height - minHeight;
      roofHeightSource = 'fitted';
    }
    wallHeight = height - roofHeight;
  } else {
    if (levels !== null && levels > 0) {
      wallHeight = levels * lh;
      heightSource = 'levels';
      if (minHeight >= wallHeight) minHeight = r.drop(minimumKey);
    } else {
      wallHeight = minHeight + defaults.defaultLevels * lh;
      heightSource = 'default';
    }
    height = wallHeight + roofHeight;
  }

  return {
    height,
    minHeight,
    wallHeight,
    levels,
    minLevel,
    roofLevels,
    roofHeight,
    roofAngle,
    roofShape,
    roofShapeExact: shapeTag?.exact ?? false,
    roofDirection: r.read('roof:direction', parseDirection),
    roofOrientation: r.read('roof:orientation', parseOrientation),
    colours: { building: r.read('building:colour', parseColour), roof: r.read('roof:colour', parseColour) },
    materials: { building: r.read('building:material', parseMaterial), roof: r.read('roof:material', parseMaterial) },
    heightSource,
    roofHeightSource,
    hasDefaultHeight: heightSource === 'default',
    hasDefaultRoof: shapeTag === null,
    ignored: r.ignored,
    notes: r.notes,
  };
}

const positive = (v: number) => v > 0;

/**
 * One feature's tags read one by one, collecting what was unusable (`ignored`) or reduced
 * (`notes`). A class rather than closures: this runs for every building of every request.
 */
class TagReader {
  readonly ignored: string[] = [];
  readonly notes: string[] = [];

  constructor(private readonly tags: Readonly<Record<string, string>>) {}

  read<T>(key: string, parse: (v: string | undefined) => T | null): T | null {
    const raw = this.tags[key];
    if (raw === undefined) return null;
    const value = parse(raw);
    if (value === null) this.ignored.push(`${key}=${raw}`);
    return value;
  }

  /** A height tag, multi-values reduced to the smallest or largest item (noted when they differed). */
  number(key: string, parse: (v: string) => number | null, pick: MultiValuePick, ok?: (v: number) => boolean): number | null {
    const raw = this.tags[key];
    if (raw === undefined) return null;
    const parsed = parseMultiValued(raw, parse, pick);
    if (parsed === null || (ok !== undefined && !ok(parsed.value))) {
      this.ignored.push(`${key}=${raw}`);
      return null;
    }
    if (parsed.distinct > 1) this.notes.push(`${key}=${raw}: several values, the ${pick} (${round3(parsed.value)}) used`);
    return parsed.value;
  }

  /** A bottom that contradicts the top is dropped (listed as ignored, its reduction note withdrawn); returns the new bottom, 0. */
  drop(key: string): number {
    this.ignored.push(`${key}=${this.tags[key]}`);
    const reduced = this.notes.findIndex((n) => n.startsWith(`${key}=`));
    if (reduced >= 0) this.notes.splice(reduced, 1);
    return 0;
  }
}

function round3(v: number): number {
  return Math.round(v * 1000) / 1000;
}
