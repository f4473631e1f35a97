/**
 * What the model tests check of a shared node model (src/geometry/instances/models): that it is a
 * clean solid (inspectMesh: closed, outward, no degenerate or non-finite triangle) and how far it
 * reaches along each axis, so its top and footprint can be held to the real object's.
 */
import { inspectMesh } from '../../../src/geometry/mesh-checks.ts';
import type { IndexedMesh } from '../../../src/geometry/types.ts';

export interface ModelShape {
  /** Closed, outward (positive volume), no degenerate or non-finite triangle. */
  solid: boolean;
  triangles: number;
  min: [number, number, number];
  max: [number, number, number];
  /** The inspection, for failure messages. */
  report: string;
}

export function modelShape(m: IndexedMesh): ModelShape {
  const r = inspectMesh(m);
  const min: [number, number, number] = [Infinity, Infinity, Infinity],
    max: [number, number, number] = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < m.positions.length; i++) {
    min[i % 3] = Math.min(min[i % 3], m.positions[i]);
    max[i % 3] = Math.max(max[i % 3], m.positions[i]);
  }
  return {
    solid: r.closed && r.volume > 0 && r.degenerate === 0 && r.nonFinite === 0,
    triangles: r.triangles,
    min,
    max,
    report: JSON.stringify(r),
  };
}
