import type { IndexedMesh } from '../types.ts';
import type { CropPolygon } from './crop-polygon.ts';
import { cutSolid } from './cut-solid.ts';

/** Note in `dataNotes` of a solid whose cut could not be capped exactly (never seen on real data so far). */
export const CAP_FAILED_NOTE = 'cropScene: the cut could not be closed exactly; the solid is cut but open along the boundary';

/**
 * Closed solids (buildings, barriers) cut to the polygon (cropScene): those wholly outside are
 * dropped, those wholly inside come back untouched, the rest are cut and capped (cut-solid.ts)
 * and marked `cropped: true` in their descriptor.
 */
export function cropSolids<T extends { mesh: IndexedMesh; descriptor: object }>(items: readonly T[], poly: CropPolygon): T[] {
  const out: T[] = [];
  for (const item of items) {
    const r = cutSolid(item.mesh, poly);
    if (!r) continue;
    if (!r.cut) {
      out.push(item);
      continue;
    }
    const descriptor: Record<string, unknown> = { ...item.descriptor, cropped: true };
    if (!r.closed) descriptor.dataNotes = [...((descriptor.dataNotes as string[] | undefined) ?? []), CAP_FAILED_NOTE];
    out.push({ ...item, mesh: r.mesh, descriptor: descriptor as T['descriptor'] });
  }
  return out;
}
