import { parseLength } from '../../../osm-model/tag-values/index.ts';

/** Tallest street object we believe (a wind turbine's tip); above that a `height` is a typo. */
export const MAX_OBJECT_HEIGHT = 300;

/** Tagged `height` of a street object in metres (units as buildings read them), or null. */
export function objectHeight(tags: Readonly<Record<string, string>>): number | null {
  const h = parseLength(tags.height, MAX_OBJECT_HEIGHT);
  return h !== null && h > 0 ? h : null;
}
