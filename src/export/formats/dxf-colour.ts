/**
 * DXF colours: a palette colour (sRGB 0–1, palette.ts) as the pair every reader understands —
 * group 62, the nearest AutoCAD Colour Index, for readers that know only the 255 indexed colours,
 * and group 420, the 24-bit true colour (0xRRGGBB) that R2004 and later readers show instead.
 */
import type { Rgb } from './palette.ts';

/** The ACI colours 1–255 as AutoCAD defines them (0 is ByBlock, 256 ByLayer). */
const ACI: Rgb[] = aciTable();

function aciTable(): Rgb[] {
  const t: Rgb[] = [[0, 0, 0]];
  // 1–9: the named colours and two greys
  t.push([255, 0, 0], [255, 255, 0], [0, 255, 0], [0, 255, 255], [0, 0, 255], [255, 0, 255], [255, 255, 255], [128, 128, 128], [192, 192, 192]);
  // 10–249: 24 hues 15° apart, each at five brightnesses, full and half saturation in turn
  const levels = [255, 165, 127, 76, 38];
  for (let i = 10; i < 250; i++) {
    const hue = Math.floor((i - 10) / 10) * 15,
      j = (i - 10) % 10;
    const v = levels[j >> 1],
      low = j % 2 ? Math.round(v * 0.5) : 0;
    t.push(hueColour(hue, v, low));
  }
  // 250–255: greys
  for (const g of [51, 80, 105, 130, 190, 255]) t.push([g, g, g]);
  return t;
}

/** The colour of `hue` (degrees) between `low` (its smallest channel) and `high` (its largest). */
function hueColour(hue: number, high: number, low: number): Rgb {
  const f = (hue % 60) / 60,
    up = Math.round(low + (high - low) * f),
    down = Math.round(high - (high - low) * f);
  switch (Math.floor(hue / 60)) {
    case 0:
      return [high, up, low];
    case 1:
      return [down, high, low];
    case 2:
      return [low, high, up];
    case 3:
      return [low, down, high];
    case 4:
      return [up, low, high];
    default:
      return [high, low, down];
  }
}

/**
 * The index of the ACI colour nearest to an sRGB colour (0–1), 1–255. Nearest in luma and
 * chroma with chroma counted double: the ACI has few muted colours, and a muted green (terrain,
 * grass) should fall on a green rather than on the grey of equal brightness.
 */
export function nearestAci(rgb: Rgb): number {
  const [y, u, v] = lumaChroma(bytes(rgb));
  let best = 7,
    d = Infinity;
  for (let i = 1; i < 256; i++) {
    const [ay, au, av] = ACI_YUV[i];
    const e = (y - ay) ** 2 + CHROMA_WEIGHT * ((u - au) ** 2 + (v - av) ** 2);
    if (e < d) {
      d = e;
      best = i;
    }
  }
  return best;
}

const CHROMA_WEIGHT = 4;
const ACI_YUV = ACI.map(lumaChroma);

/** Luma (Rec. 601) and the two colour differences of an 8-bit RGB. */
function lumaChroma([r, g, b]: Rgb): Rgb {
  const y = 0.299 * r + 0.587 * g + 0.114 * b;
  return [y, b - y, r - y];
}

/** Group 420's value: 0xRRGGBB of an sRGB colour (0–1). */
export function trueColour(rgb: Rgb): number {
  const [r, g, b] = bytes(rgb);
  return (r << 16) | (g << 8) | b;
}

/** The 62 and 420 groups of a colour, as DXF lines. */
export function colourGroups(rgb: Rgb): string[] {
  return ['62', String(nearestAci(rgb)), '420', String(trueColour(rgb))];
}

function bytes(rgb: Rgb): Rgb {
  return [byte(rgb[0]), byte(rgb[1]), byte(rgb[2])];
}

function byte(c: number): number {
  return Math.round(Math.min(1, Math.max(0, c)) * 255);
}
