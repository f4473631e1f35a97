/**
 * Sidewalks drawn on the road's own way: `sidewalk=both|left|right|no|none|separate|yes` and the
 * side-specific `sidewalk:both|left|right=yes|no|separate` (the specific key wins over the general
 * one), widths from `sidewalk:<side>:width`, `sidewalk:both:width`, `sidewalk:width` (else
 * DEFAULT_SIDEWALK_WIDTH). Left and right are relative to the way's drawing direction.
 *
 * `separate` means the sidewalk is mapped as its own footway, which is drawn from that way: no strip
 * here, or it would be drawn twice. `yes` on `sidewalk` means both sides.
 */
import { DEFAULT_SIDEWALK_WIDTH, parseWidth } from './widths.ts';

type Tags = Readonly<Record<string, string>>;

export interface Sidewalks {
  /** Width of the strip on the left of the way, metres; 0 = none drawn. */
  left: number;
  /** Width of the strip on the right, metres; 0 = none drawn. */
  right: number;
}

type Presence = 'yes' | 'no' | 'separate' | null;

function presence(value: string | undefined): Presence {
  switch (value?.trim().toLowerCase()) {
    case 'yes':
    case 'both':
    case 'sidewalk':
      return 'yes';
    case 'no':
    case 'none':
    case 'false':
      return 'no';
    case 'separate':
      return 'separate';
    default:
      return null;
  }
}

/** What the general `sidewalk=*` says about one side. */
function generalFor(value: string | undefined, side: 'left' | 'right'): Presence {
  const v = value?.trim().toLowerCase();
  if (v === undefined) return null;
  if (v === side) return 'yes';
  if (v === 'left' || v === 'right') return 'no';
  return presence(v);
}

export function parseSidewalks(tags: Tags): Sidewalks {
  const out: Sidewalks = { left: 0, right: 0 };
  for (const side of ['left', 'right'] as const) {
    const p = presence(tags[`sidewalk:${side}`]) ?? presence(tags['sidewalk:both']) ?? generalFor(tags.sidewalk, side);
    if (p !== 'yes') continue;
    out[side] =
      parseWidth(tags[`sidewalk:${side}:width`], 0.3, 15) ??
      parseWidth(tags['sidewalk:both:width'], 0.3, 15) ??
      parseWidth(tags['sidewalk:width'], 0.3, 15) ??
      DEFAULT_SIDEWALK_WIDTH;
  }
  return out;
}
