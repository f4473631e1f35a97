/**
 * A building from its root object and the parts below it: parts without surfaces (a Building that
 * only groups its parts) are left out, unusable parts become notes, and a building left with no
 * surface at all becomes a note of its own, so nothing disappears without a line in the report.
 */
import type { PartResult } from './cityjson-object.ts';
import type { ReaderItem, SourcePart } from './source-model.ts';

export interface AssemblyInput {
  id: string;
  result: PartResult;
}

/** `root` first, then its descendants in file order. */
export function assembleBuilding(root: AssemblyInput, descendants: readonly AssemblyInput[]): ReaderItem[] {
  const items: ReaderItem[] = [];
  const parts: SourcePart[] = [];
  const reasons: string[] = [];
  for (const input of [root, ...descendants]) {
    if ('skip' in input.result) {
      reasons.push(`${input.id}: ${input.result.skip}`);
      if (input !== root) items.push({ kind: 'skip', note: { id: input.id, reason: `part of ${root.id} left out: ${input.result.skip}` } });
    } else if (input.result.part.surfaces.length > 0) parts.push(input.result.part);
  }
  const own = 'part' in root.result ? root.result.part : null;
  if (parts.length === 0) {
    const why = reasons.length > 0 ? reasons.join('; ') : 'neither it nor any part has geometry';
    return [{ kind: 'skip', note: { id: root.id, reason: `no usable geometry (${why})` } }];
  }
  items.unshift({
    kind: 'building',
    building: { id: root.id, name: own?.name ?? null, roofType: own?.roofType ?? null, measuredHeight: own?.measuredHeight ?? null, parts },
  });
  return items;
}
