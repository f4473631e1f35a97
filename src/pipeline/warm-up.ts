import { createLocalFrame } from '../frame/local-frame.ts';
import { buildBuildingGroup } from '../geometry/buildings/from-osm.ts';
import type { RoofShape } from '../geometry/buildings/build-part.ts';
import { loadRoofs } from '../geometry/buildings/roofs/index.ts';
import { JsonBytesWriter } from '../encode/json-bytes.ts';
import { writeMeshJson } from '../encode/mesh-json.ts';
import type { OsmSource } from '../sources/osm/types.ts';

const WORLD = { minLon: -180, minLat: -90, maxLon: 180, maxLat: 90 };

export interface WarmUpOptions {
  /** Most groups to read from the store, spread evenly over it. */
  sample: number;
  /** Stop once this much time has gone, milliseconds. */
  budgetMs: number;
}

export const WARM_UP_DEFAULTS: WarmUpOptions = { sample: 8000, budgetMs: 1500 };

/**
 * Builds and encodes a sample of the store's real buildings in each worker thread at start-up,
 * so that the first request runs optimised code: without it a cold ~10 km² request cost about
 * twice the CPU of a warm one (V8 runs new code in its interpreter and tiers it up only after it
 * has seen enough work; ~1,500 buildings were not enough, ~12,000 meshes bring the first request
 * within ~15% of a warm one). The sample is spread over the whole store and also built under other
 * default roofs, so the constructions of untagged roofs get warm too. Time-boxed; returns the
 * number of meshes built.
 */
export async function warmUpBuildings(source: OsmSource, options: Partial<WarmUpOptions> = {}): Promise<number> {
  const { sample, budgetMs } = { ...WARM_UP_DEFAULTS, ...options };
  const started = performance.now();
  if (budgetMs <= 0) return 0;
  await loadRoofs();
  const groups = source.buildingGroups(WORLD);
  if (groups.length === 0) return 0;
  const step = Math.max(1, Math.floor(groups.length / sample));
  const chosen = groups.filter((_, i) => i % step === 0).slice(0, sample);
  const members = source.buildingGroupMembers(chosen.map((g) => g.gid));
  const [lon, lat] = chosen[0].rep;
  const frame = createLocalFrame(lat, lon);
  const big = 1e6;
  const polygon = [-big, -big, big, -big, big, big, -big, big];
  const w = new JsonBytesWriter(1 << 20);
  let meshes = 0;
  const roofs: RoofShape[] = ['flat', 'gabled', 'hipped'];
  for (let i = 0; i < chosen.length && performance.now() - started < budgetMs; i++) {
    const g = chosen[i];
    const [principal, ...parts] = members.get(g.gid) ?? [];
    if (!principal) continue;
    // Every fifth building is built again under the other default roofs.
    for (const defaultRoofType of i % 5 === 0 ? roofs : roofs.slice(0, 1)) {
      const ctx = { frame, polygon, defaultLevels: 3, defaultLevelHeight: 3, defaultRoofType, owns: () => true };
      for (const b of buildBuildingGroup({ principal, parts, rep: g.rep }, ctx)) {
        w.reset();
        writeMeshJson(w, b.mesh, b.descriptor, i % 2 === 0);
        meshes++;
      }
    }
  }
  return meshes;
}
