import { Clipper, FillRule, type Path64, type Paths64, type Rect64 } from 'clipper2-ts';
import { CLIPPER_SCALE } from './clipper-paths.ts';
import { clipToBox, grown } from './boxes.ts';
import { shrunkAndGrown } from './offset.ts';

/**
 * The morphological opening of a large polygon around a few places only. Each cluster of the places
 * (boxes from surfaces/assemble/thin-parts.ts or crossing-sides.ts) with a margin of WINDOW_MARGIN
 * is cut out of the polygon (boxes.ts clipToBox) and opened on its own: the shape shrunk and grown
 * back (offset.ts) is exact within CORE_MARGIN of the places — beyond the reach of the window's own
 * sides. The mask is that shape within the cores of the windows and everything outside them; the
 * opening is the polygon ∩ mask, one sweep over the polygon's sides and a few small ones, where
 * opening it whole takes three sweeps over twice its sides (for a sliver at one corner of a polygon
 * of a thousand sides and a hundred holes). Like the whole opening, the mask's sides keep OVERSHOOT
 * away from the polygon's but where it is thin, so the intersection leaves no zigzags. `lost`: what
 * the opening takes off (within the cores).
 *
 * What opening takes off lies between the two sides that make a thin place (their box), or within
 * a few widths of it; a margin of 25 cm is far beyond that for the widths used (5 cm and less).
 * Null when the polygon is small or the windows would cover much of it: open it whole.
 */
export function openingMask(paths: Paths64, places: readonly number[], width: number): { mask: Paths64; lost: Paths64 } | null {
  let sides = 0;
  for (const p of paths) sides += p.length;
  if (sides < LOCAL_MIN_SIDES) return null;
  const bounds = Clipper.getBoundsPaths(paths);
  const windows = clusters(places, WINDOW_MARGIN, bounds);
  if (!windows) return null;
  const outer = grown(bounds, 1);
  const mask: Paths64 = [rectPath(outer, true)];
  const lost: Paths64 = [];
  for (let w = 0; w < windows.length; w += 4) {
    // united first: cut along the window's sides the rings become one clean polygon (offset.ts
    // needs outer rings positive, holes negative, and no doubled stretches)
    const local = Clipper.union(clipToBox(paths, box(windows, w, WINDOW_MARGIN)), FillRule.NonZero);
    const core = box(windows, w, CORE_MARGIN);
    mask.push(rectPath(core, false));
    if (local.length === 0) continue;
    const kept = shrunkAndGrown(local, width);
    clipToBox(kept, core, mask);
    clipToBox(Clipper.difference(local, kept, FillRule.NonZero), core, lost);
  }
  return { mask, lost };
}

function rectPath(b: Rect64, positive: boolean): Path64 {
  const p: Path64 = [
    { x: b.left, y: b.top },
    { x: b.right, y: b.top },
    { x: b.right, y: b.bottom },
    { x: b.left, y: b.bottom },
  ];
  if (Clipper.area(p) > 0 !== positive) p.reverse();
  return p;
}

/** Polygons with fewer sides than this are opened whole. */
const LOCAL_MIN_SIDES = 64;

/** Around the places, metres: the window opened on its own, and the part of what it loses that is cut. */
const WINDOW_MARGIN = 0.5;
const CORE_MARGIN = 0.25;

/** Too many places to gather them: the polygon is opened whole. */
const MAX_PLACES = 4096;

/** Box number w/4 of `boxes` (metres) grown by `margin`, on the millimetre grid (outwards). */
function box(boxes: readonly number[], w: number, margin: number): Rect64 {
  return {
    left: Math.floor((boxes[w] - margin) * CLIPPER_SCALE),
    top: Math.floor((boxes[w + 1] - margin) * CLIPPER_SCALE),
    right: Math.ceil((boxes[w + 2] + margin) * CLIPPER_SCALE),
    bottom: Math.ceil((boxes[w + 3] + margin) * CLIPPER_SCALE),
  };
}

/**
 * The places gathered into clusters whose boxes, grown by `margin`, are apart (minX, minY, maxX,
 * maxY, metres); null when the windows would cover much of the polygon's box `bounds` (opening it
 * whole is then no dearer).
 */
function clusters(places: readonly number[], margin: number, bounds: Rect64): number[] | null {
  if (places.length > 4 * MAX_PLACES) return null;
  const out = places.slice();
  // merge boxes that come within 2 × margin of each other until none do
  for (let merged = true; merged; ) {
    merged = false;
    for (let a = 0; a < out.length; a += 4) {
      for (let b = a + 4; b < out.length; b += 4) {
        if (
          out[b] > out[a + 2] + 2 * margin ||
          out[b + 2] < out[a] - 2 * margin ||
          out[b + 1] > out[a + 3] + 2 * margin ||
          out[b + 3] < out[a + 1] - 2 * margin
        )
          continue;
        out[a] = Math.min(out[a], out[b]);
        out[a + 1] = Math.min(out[a + 1], out[b + 1]);
        out[a + 2] = Math.max(out[a + 2], out[b + 2]);
        out[a + 3] = Math.max(out[a + 3], out[b + 3]);
        const last = out.length - 4;
        out[b] = out[last];
        out[b + 1] = out[last + 1];
        out[b + 2] = out[last + 2];
        out[b + 3] = out[last + 3];
        out.length = last;
        b -= 4;
        merged = true;
      }
    }
  }
  let covered = 0;
  for (let w = 0; w < out.length; w += 4) covered += (out[w + 2] - out[w] + 2 * margin) * (out[w + 3] - out[w + 1] + 2 * margin);
  const whole = ((bounds.right - bounds.left) / CLIPPER_SCALE) * ((bounds.bottom - bounds.top) / CLIPPER_SCALE);
  return covered > 0.5 * whole ? null : out;
}
