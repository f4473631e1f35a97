import { parseDirection } from '../../../osm-model/tag-values/index.ts';

/**
 * OSM `direction` (compass degrees clockwise from north, or `NE`, `south-west`…: the way a bench's
 * sitter or a sign faces) as a node rotation: radians counter-clockwise from east, in [0, 2π).
 * `camera:direction` and `direction=forward|backward` (relative to a way) are not compass headings.
 */
export function directionRotation(tags: Readonly<Record<string, string>>): number | null {
  const degrees = parseDirection(tags.direction);
  if (degrees === null) return null;
  return normaliseAngle(Math.PI / 2 - (degrees * Math.PI) / 180);
}

export function normaliseAngle(a: number): number {
  const t = a % (2 * Math.PI);
  return t < 0 ? t + 2 * Math.PI : t;
}
