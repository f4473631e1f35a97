/**
 * Whether a mapped area lies on the ground at all. An area below ground (an underground station,
 * a car park under a square), inside something, on a roof or on a bridge is not ground: draping
 * it would paint a station hall over the street above it. Pure predicate on tags; the classifier
 * returns no kind for such areas.
 */
import { allNegative, isSet, valueItems } from '../../../osm-model/tag-values/items.ts';

type Tags = Readonly<Record<string, string>>;

/** `location=*` items that put an area off the ground. */
const OFF_GROUND_LOCATIONS = new Set(['underground', 'underwater', 'indoor', 'roof', 'rooftop']);
/** `parking=*` values of car parks that are not on the ground. */
const OFF_GROUND_PARKING = new Set(['underground', 'rooftop']);
/**
 * Keys whose areas are open water surfaces. On them a negative `layer` is drawing order (a river
 * under a bridge is often `layer=-1`), not burial, so the layer rule below spares them; a piped or
 * culverted stretch says `tunnel=*` instead.
 */
function isOpenWater(tags: Tags): boolean {
  return (
    valueItems(tags.natural).includes('water') ||
    valueItems(tags.waterway).includes('riverbank') ||
    (isSet(tags, 'water') && !isSet(tags, 'amenity') && !isSet(tags, 'leisure'))
  );
}

/**
 * Why an area is not ground, as a short text naming the deciding tag (`layer=-2`,
 * `location=roof`), or null when it lies on the ground. In order:
 *
 * - `tunnel=*` or `indoor=*` (other than `no`): inside a tunnel or a building;
 * - `location=underground|underwater|indoor|roof|rooftop` (also as an item of a `;` list);
 * - `parking=underground|rooftop`;
 * - `bridge=*` (other than `no`) or `man_made=bridge`: a deck above the ground (the centerline
 *   builder lays road decks; a bridge outline is not draped into the valley);
 * - `level=*` all negative: a basement;
 * - `layer=*` all negative: below the ground, except on open water (`natural=water`,
 *   `waterway=riverbank`, `water=*`), where it is drawing order under bridges. In Monaco the
 *   underground station (`landuse=railway`, `layer=-2`) is the case in point.
 *
 * A positive `layer` or `level`, `covered=yes` (a roofed platform) and `location=overground` stay
 * ground: a building footprint over them is cut out of the ground anyway.
 */
export function notGroundReason(tags: Tags): string | null {
  if (isSet(tags, 'tunnel')) return `tunnel=${tags.tunnel}`;
  if (isSet(tags, 'indoor')) return `indoor=${tags.indoor}`;
  if (valueItems(tags.location).some((v) => OFF_GROUND_LOCATIONS.has(v))) return `location=${tags.location}`;
  if (valueItems(tags.parking).some((v) => OFF_GROUND_PARKING.has(v))) return `parking=${tags.parking}`;
  if (isSet(tags, 'bridge')) return `bridge=${tags.bridge}`;
  if (valueItems(tags.man_made).includes('bridge')) return `man_made=${tags.man_made}`;
  if (allNegative(tags.level)) return `level=${tags.level}`;
  if (allNegative(tags.layer) && !isOpenWater(tags)) return `layer=${tags.layer}`;
  return null;
}
