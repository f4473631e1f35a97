import { NAMED_COLOURS } from './css-colours.ts';

/**
 * OSM colours (`building:colour`, `roof:colour`): `#rgb`, `#rrggbb` (also without `#` when it has a
 * digit, so words like `facade` stay words), or a colour name in any spelling (`Light Grey`,
 * `light_grey`, `lightgrey`). Returns lower-case `#rrggbb`, or null.
 */
export function parseColour(value: string | undefined): string | null {
  if (value === undefined) return null;
  const text = value.trim().toLowerCase();
  const hex = /^#?([0-9a-f]{3}|[0-9a-f]{6})$/.exec(text);
  if (hex && (text.startsWith('#') || /\d/.test(hex[1]))) {
    const h = hex[1];
    return h.length === 3 ? `#${h[0]}${h[0]}${h[1]}${h[1]}${h[2]}${h[2]}` : `#${h}`;
  }
  return NAMED_COLOURS[text.replace(/[\s_-]+/g, '')] ?? null;
}
