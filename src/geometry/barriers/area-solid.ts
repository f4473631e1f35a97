import { MeshBuilder } from '../mesh-builder.ts';
import { normalizeFootprint } from '../ring.ts';
import { triangulateFootprint } from '../triangulate/index.ts';
import type { GroundSampler } from '../terrain/ground-sampler.ts';
import type { Footprint, IndexedMesh } from '../types.ts';

/**
 * A filled barrier area (`barrier=hedge` + `area=yes`): the footprint raised `height` above the
 * ground, every vertex of the base on the ground under it and the top following it. Null when the
 * footprint is unusable (the caller then sweeps its rings as walls).
 */
export function areaSolid(footprint: Footprint, height: number, ground?: GroundSampler): IndexedMesh | null {
  const f = normalizeFootprint(footprint);
  if (!f) return null;
  const tri = triangulateFootprint(f);
  if (!tri.exact) return null;
  const g = ground ?? (() => 0);
  const b = new MeshBuilder();
  const n = tri.coords.length / 2;
  const bottom: number[] = [],
    top: number[] = [];
  for (let i = 0; i < n; i++) {
    const x = tri.coords[2 * i],
      y = tri.coords[2 * i + 1],
      z = g(x, y);
    bottom.push(b.vertex(x, y, z));
    top.push(b.vertex(x, y, z + height));
  }
  for (let t = 0; t < tri.triangles.length; t += 3) {
    const [u, v, w] = [tri.triangles[t], tri.triangles[t + 1], tri.triangles[t + 2]];
    b.triangle(top[u], top[v], top[w]);
    b.triangle(bottom[u], bottom[w], bottom[v]);
  }
  // walls: outer counter-clockwise and holes clockwise, so the solid is always left of a ring's direction
  let start = 0;
  for (const ring of [f.outer, ...f.holes]) {
    const m = ring.length / 2;
    for (let k = 0; k < m; k++) {
      const a = start + k,
        c = start + ((k + 1) % m);
      b.quad(bottom[a], bottom[c], top[c], top[a]);
    }
    start += m;
  }
  return b.build();
}
