import { parseColour } from '../../../osm-model/tag-values/colour.ts';
import { parseMaterial } from '../../../osm-model/tag-values/material.ts';
import type { OsmTags } from '../../../osm-model/feature.ts';
import { barrierDefault } from '../defaults.ts';
import type { BarrierKind, BarrierTags } from '../types.ts';
import { barrierKind, gateNodeKind } from './kind.ts';
import { taggedSize } from './dimensions.ts';

export { barrierKind, gateNodeKind } from './kind.ts';

/** A lowered kerb (kerb=lowered|rolled) steps this much, metres. */
const LOWERED_KERB = 0.05;

/**
 * What a barrier way's tags say: kind, size (tags first, then the defaults table by kind and
 * material), material and colour. Null when the feature is not a barrier (barrierKind).
 */
export function parseBarrierTags(tags: OsmTags, featureKind: 'point' | 'line' | 'area'): BarrierTags | null {
  const kind = barrierKind(tags, featureKind);
  if (!kind) return null;
  return barrierTagsOf(kind, tags, featureKind);
}

/**
 * A gate node's tags: kind (gateNodeKind), height and leaf thickness from the table (a node's
 * `width` is its opening, which gate-nodes.ts reads), material, colour. Null for other nodes.
 */
export function parseGateNodeTags(tags: OsmTags): BarrierTags | null {
  const kind = gateNodeKind(tags);
  if (!kind) return null;
  const { width: _opening, ...rest } = tags;
  return barrierTagsOf(kind, rest, 'line');
}

function barrierTagsOf(kind: BarrierKind, tags: OsmTags, featureKind: 'point' | 'line' | 'area'): BarrierTags {
  const material = parseMaterial(tags.material) ?? undefined;
  const colour = parseColour(tags.colour) ?? undefined;
  const row = barrierDefault(kind, material);
  const size = taggedSize(tags, kind);
  let defaultHeight = row.height;
  if (kind === 'kerb' && (tags.kerb === 'lowered' || tags.kerb === 'rolled')) defaultHeight = LOWERED_KERB;
  // an area hedge (area=yes) is the hedge's own footprint; any other area is the ring of a closed way
  const filled = featureKind === 'area' && kind === 'hedge' && tags.area === 'yes';
  return {
    kind,
    height: size.height ?? defaultHeight,
    width: size.width ?? row.width,
    profile: row.profile,
    shape: filled ? 'area' : kind === 'bollard' ? 'posts' : 'strip',
    ...(row.spacing ? { spacing: row.spacing } : {}),
    ...(row.span ? { span: row.span } : {}),
    ...(material ? { material } : {}),
    ...(colour ? { colour } : {}),
    heightSource: size.height !== null ? 'tag' : 'default',
    widthSource: size.width !== null ? 'tag' : 'default',
    ...(size.notes.length ? { dataNotes: size.notes } : {}),
  };
}
