import { createRequire } from 'node:module';
import type { Footprint } from '../types.ts';
import { signedArea2 } from '../ring.ts';
import { holesInsideOuter, ringsAreDisjointAndSimple } from '../polygon-checks.ts';
import type { FootprintSkeleton } from './types.ts';
import { stats } from './stats.ts';

/**
 * The exact straight skeleton from the `straight-skeleton` package (CGAL compiled to
 * WebAssembly). The package wants a browser-like global while it loads, works in float32, and a
 * failed CGAL assertion aborts the whole WebAssembly instance; this wrapper hides all three:
 * it validates input first, centres coordinates so float32 keeps sub-millimetre precision, maps
 * the contour back to the exact input vertices, and reloads a fresh instance after an abort.
 */

interface SkeletonBuilderApi {
  init(): Promise<void>;
  buildFromPolygon(rings: number[][][]): { vertices: [number, number, number][]; polygons: number[][] } | null;
}

let builder: SkeletonBuilderApi | null = null;
let loading: Promise<void> | null = null;

/** Loads (or reloads after a crash) the WebAssembly module. Await once before building skeleton roofs. */
export function loadSkeleton(): Promise<void> {
  if (builder) return Promise.resolve();
  loading ??= (async () => {
    const g = globalThis as Record<string, unknown>;
    const hadSelf = 'self' in g, hadWindow = 'window' in g;
    // The Emscripten glue only runs when it sees a browser-like global; remove it again afterwards.
    if (!hadSelf) g.self = g;
    if (!hadWindow) g.window = g;
    try {
      const require = createRequire(import.meta.url);
      const path = require.resolve('straight-skeleton');
      delete require.cache[path]; // a fresh instance after an abort
      const mod = require(path) as { SkeletonBuilder: SkeletonBuilderApi };
      await mod.SkeletonBuilder.init();
      builder = mod.SkeletonBuilder;
    } finally {
      if (!hadSelf) delete g.self;
      if (!hadWindow) delete g.window;
      loading = null;
    }
  })();
  return loading;
}

export function isSkeletonLoaded(): boolean {
  return builder !== null;
}

/**
 * The exact straight skeleton of a normalised footprint (outer counter-clockwise, holes
 * clockwise), or a sentence saying why there is none.
 */
export function footprintSkeleton(footprint: Footprint): FootprintSkeleton | string {
  if (!builder) return 'the straight skeleton is not loaded';
  const rings = [footprint.outer, ...footprint.holes];
  if (!ringsAreDisjointAndSimple(rings) || !holesInsideOuter(footprint)) return 'the footprint is not a simple polygon';

  // Centre on the bounding box so float32 keeps ~0.1 mm even for 1 km wide footprints.
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  for (let i = 0; i < footprint.outer.length; i += 2) {
    minX = Math.min(minX, footprint.outer[i]); maxX = Math.max(maxX, footprint.outer[i]);
    minY = Math.min(minY, footprint.outer[i + 1]); maxY = Math.max(maxY, footprint.outer[i + 1]);
  }
  const cx = (minX + maxX) / 2, cy = (minY + maxY) / 2;
  const input: number[][][] = [];
  const lookup = new Map<string, number>();
  let ringVertexCount = 0;
  for (let r = 0; r < rings.length; r++) {
    const ring = rings[r];
    const local: number[] = [];
    const pts: number[][] = [];
    for (let i = 0; i < ring.length; i += 2) {
      const x = Math.fround(ring[i] - cx), y = Math.fround(ring[i + 1] - cy);
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

  let raw: ReturnType<SkeletonBuilderApi['buildFromPolygon']>;
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
  const nodeX: number[] = [], nodeY: number[] = [], nodeT: number[] = [];
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

/** Test hook: hands raw rings to the package without validation (to exercise crash recovery). */
export function rawSkeletonForTest(rings: number[][][]): unknown {
  if (!builder) return 'not loaded';
  try {
    return builder.buildFromPolygon(rings);
  } catch (error) {
    builder = null;
    void loadSkeleton().catch(() => undefined);
    return error instanceof Error ? error : new Error(String(error));
  }
}
