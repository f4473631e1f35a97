import { parseLength } from '../../../osm-model/tag-values/length.ts';
import type { OsmTags } from '../../../osm-model/feature.ts';
import type { BarrierKind } from '../types.ts';

/** Tallest and thickest barrier taken from a tag, metres (city walls reach ~25 m; more is a typo). */
const MAX_HEIGHT = 40;
const MAX_WIDTH = 30;
/** Thinner than this would round to nothing in millimetre output. */
const MIN_SIZE = 0.02;

export interface TaggedSize {
  height: number | null;
  width: number | null;
  /** `key=value` of size tags that were present but unusable. */
  notes: string[];
}

/**
 * `height` and `width` in any unit parseLength reads; kerbs also `kerb:height`. Zero, negative,
 * lists and absurd values are ignored and noted.
 */
export function taggedSize(tags: OsmTags, kind: BarrierKind): TaggedSize {
  const notes: string[] = [];
  const read = (key: string, max: number): number | null => {
    const raw = tags[key];
    if (raw === undefined) return null;
    const v = parseLength(raw, max);
    if (v === null || v < MIN_SIZE) {
      notes.push(`${key}=${raw}`);
      return null;
    }
    return v;
  };
  let height = read('height', MAX_HEIGHT);
  if (height === null && kind === 'kerb') height = read('kerb:height', 1);
  const width = read('width', MAX_WIDTH);
  return { height, width, notes };
}
