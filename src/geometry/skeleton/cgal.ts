import { createRequire } from 'node:module';
import type { Footprint } from '../types.ts';
import { signedArea2 } from '../ring.ts';
import { holesInsideOuter, ringsAreDisjointAndSimple } from '../planar/polygon-checks.ts';
import type { FootprintSkeleton } from './types.ts';
import { stats } from './stats.ts';

/**
 * The exact straight skeleton from the `straight-skeleton` package (CGAL compiled to
 * WebAssembly). The package wants a browser-like global while it loads, works in float32, and a
 * failed CGAL assertion aborts the whole WebAssembly instance; this wrapper hides all three:
 * it validates input first, centres coordinates so float32 keeps sub-millimetre precision, maps
 * the contour back to the exact input vertices, and reloads a fresh instance after an abort.
 *
 * CGAL is optional. The package bundles CGAL code whose upstream licence is GPL-3 or commercial,
 * so it is an optionalDependency that is loaded lazily, only if it is installed: a build that must
 * not ship it leaves it out (`npm install --omit=optional`), or sets CITY_SKELETON_CGAL=off to
 * keep it unloaded where it is installed. Without it the double-precision skeletons (index.ts)
 * decide alone: footprintSkeleton says why there is none for what they decline, and the roof
 * builders fall back along their chain as for any skeleton that fails (buildings/roofs/index.ts
 * ROOF_CHAINS: a hipped roof on such a footprint becomes pyramidal where one apex sees every side,
 * else flat), so every building part is still a closed solid.
 */

/** What this wrapper needs of the package's SkeletonBuilder (after its init). */
export interface ExactSkeletonBuilder {
  buildFromPolygon(rings: number[][][]): { vertices: [number, number, number][]; polygons: number[][] } | null;
}

/** Loads a fresh builder, or resolves null when CGAL is not to be had (not installed, switched off). */
export type ExactSkeletonLoader = () => Promise<ExactSkeletonBuilder | null>;

/**
 * The package's loader: null when CITY_SKELETON_CGAL=off or when `straight-skeleton` is not
 * installed (it is an optionalDependency, see above); a fresh instance on every call, which is
 * what recovery after an abort needs. Any other failure (a broken install) is thrown.
 */
export async function loadCgalPackage(): Promise<ExactSkeletonBuilder | null> {
  if (process.env.CITY_SKELETON_CGAL === 'off') return null;
  const require = createRequire(import.meta.url);
  let path: string;
  try {
    path = require.resolve('straight-skeleton');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'MODULE_NOT_FOUND') return null;
    throw error;
  }
  const g = globalThis as Record<string, unknown>;
  const hadSelf = 'self' in g,
    hadWindow = 'window' in g;
  // The Emscripten glue only runs when it sees a browser-like global; remove it again afterwards.
  if (!hadSelf) g.self = g;
  if (!hadWindow) g.window = g;
  try {
    delete require.cache[path]; // a fresh instance after an abort
    const mod = require(path) as { SkeletonBuilder: ExactSkeletonBuilder & { init(): Promise<void> } };
    await mod.SkeletonBuilder.init();
    return mod.SkeletonBuilder;
  } finally {
    if (!hadSelf) delete g.self;
    if (!hadWindow) delete g.window;
  }
}

let loader: ExactSkeletonLoader = loadCgalPackage;
let builder: ExactSkeletonBuilder | null = null;
/** The loader said there is no CGAL: no point asking again until the loader changes. */
let absent = false;
let loading: Promise<void> | null = null;
/** Bumped when the loader changes, so that a load still running for the old one is discarded. */
let generation = 0;

/**
 * Loads (or reloads after a crash) the WebAssembly module. Await once before building skeleton
 * roofs. Resolves also when CGAL is absent (see above); rejects only when it is there but broken.
 */
export function loadSkeleton(): Promise<void> {
  if (builder || absent) return Promise.resolve();
  const mine = generation;
  loading ??= (async () => {
    try {
      const loaded = await loader();
      if (mine !== generation) return;
      if (loaded) builder = loaded;
      else absent = true;
    } finally {
      if (mine === generation) loading = null;
    }
  })();
  return loading;
}

/**
 * Replaces how CGAL is loaded (null: the package, loadCgalPackage) and forgets the instance loaded
 * so far; loadSkeleton then loads with the new loader. For tests that run without CGAL or make it
 * abort, and for embedders that bring their own build.
 */
export function setExactSkeletonLoader(next: ExactSkeletonLoader | null): void {
  loader = next ?? loadCgalPackage;
  builder = null;
  absent = false;
  loading = null;
  generation++;
}

export function isSkeletonLoaded(): boolean {
  return builder !== null;
}

/** Whether CGAL is there: `absent` once a load found none, `unloaded` before any load (or after an abort until the reload). */
export function exactSkeletonStatus(): 'loaded' | 'absent' | 'unloaded' {
  return builder ? 'loaded' : absent ? 'absent' : 'unloaded';
}

/**
 * The exact straight skeleton of a normalised footprint (outer counter-clockwise, holes
 * clockwise), or a sentence saying why there is none.
 */
export function footprintSkeleton(footprint: Footprint): FootprintSkeleton | string {
  if (!builder)
    return absent ? 'the exact straight skeleton (CGAL, the optional straight-skeleton package) is not installed' : 'the straight skeleton is not loaded';
  const rings = [footprint.outer, ...footprint.holes];
  if (!ringsAreDisjointAndSimple(rings) || !holesInsideOuter(footprint)) return 'the footprint is not a simple polygon';

  // Centre on the bounding box so float32 keeps ~0.1 mm even for 1 km wide footprints.
  let minX = Infinity,
    minY = Infinity,
    maxX = -Infinity,
    maxY = -Infinity;
  for (let i = 0; i < footprint.outer.length; i += 2) {
    minX = Math.min(minX, footprint.outer[i]);
    maxX = Math.max(maxX, footprint.outer[i]);
    minY = Math.min(minY, footprint.outer[i + 1]);
    maxY = Math.max(maxY, footprint.outer[i + 1]);
  }
  const cx = (minX + maxX) / 2,
    cy = (minY + maxY) / 2;
  const input: number[][][] = [];
  const lookup = new Map<string, number>();
  let ringVertexCount = 0;
  for (let r = 0; r < rings.length; r++) {
    const ring = rings[r];
    const local: number[] = [];
    const pts: number[][] = [];
    for (let i = 0; i < ring.length; i += 2) {
      const x = Math.fround(ring[i] - cx),
        y = Math.fround(ring[i + 1] - cy);
      local.push(x, y);
      pts.push([x, y]);
      const key = `${x},${y}`;
      if (lookup.has(key)) return 'the footprint has two vertices at one place';
      lookup.set(key, ringVertexCount++);
    }
    // CGAL asserts (and aborts the instance) on a wrong orientation, so check it after float32 rounding.
    const area2 = signedArea2(local);
    if (r === 0 ? !(area2 > 0) : !(area2 < 0)) return 'a ring has the wrong orientation';
    pts.push(pts[0]);
    input.push(pts);
  }

  let raw: ReturnType<ExactSkeletonBuilder['buildFromPolygon']>;
  const started = performance.now();
  stats.calls++;
  try {
    raw = builder.buildFromPolygon(input);
  } catch (error) {
    // An abort kills the instance: drop it and load a fresh one in the background.
    builder = null;
    void loadSkeleton().catch(() => undefined);
    stats.failures++;
    return `the straight skeleton crashed (${error instanceof Error ? error.message.slice(0, 80) : 'unknown error'})`;
  } finally {
    stats.ms += performance.now() - started;
  }
  if (!raw) {
    stats.failures++;
    return 'the straight skeleton could not be computed';
  }

  // Contour vertices come back as float32 copies of the input: map them to the exact ring vertices.
  const index: number[] = new Array(raw.vertices.length);
  const nodeX: number[] = [],
    nodeY: number[] = [],
    nodeT: number[] = [];
  let maxT = 0;
  const seenContour = new Set<number>();
  for (let i = 0; i < raw.vertices.length; i++) {
    const [x, y, t] = raw.vertices[i];
    if (t === 0) {
      const ring = lookup.get(`${x},${y}`);
      if (ring === undefined || seenContour.has(ring)) return fail('the straight skeleton moved a footprint vertex');
      seenContour.add(ring);
      index[i] = ring;
    } else {
      if (!(t > 0) || !Number.isFinite(x) || !Number.isFinite(y)) return fail('the straight skeleton returned an invalid node');
      index[i] = ringVertexCount + nodeX.length;
      nodeX.push(x + cx);
      nodeY.push(y + cy);
      nodeT.push(t);
      maxT = Math.max(maxT, t);
    }
  }
  if (seenContour.size !== ringVertexCount) return fail('the straight skeleton lost a footprint vertex');
  const faces = raw.polygons.map((p) => p.map((v) => index[v]));
  if (faces.length !== ringVertexCount || !(maxT > 0)) return fail('the straight skeleton has the wrong number of faces');
  return { ringVertexCount, nodeX, nodeY, nodeT, faces, maxT, exact: true };
}

function fail(reason: string): string {
  stats.failures++;
  return reason;
}
