import { loadCgalPackage, type ExactSkeletonLoader } from '../../../src/geometry/skeleton/index.ts';

/**
 * Loaders for setExactSkeletonLoader (src/geometry/skeleton/cgal.ts) that stand in for the
 * situations the service must survive: CGAL not installed, and CGAL aborting its WebAssembly
 * instance in the middle of a build.
 */

/** CGAL not installed (what a build without the optional `straight-skeleton` package sees). */
export const cgalAbsent: ExactSkeletonLoader = async () => null;

/**
 * The real package, except that the first build after loading hands CGAL `rings` instead of the
 * validated input (e.g. a clockwise outer ring, on which CGAL asserts and its instance aborts).
 * Later builds, and every instance loaded after that first one, pass the input through.
 */
export function abortOnFirstBuild(rings: number[][][]): ExactSkeletonLoader {
  let armed = true;
  return async () => {
    const real = await loadCgalPackage();
    if (!real) return null;
    return {
      buildFromPolygon(input) {
        if (!armed) return real.buildFromPolygon(input);
        armed = false;
        return real.buildFromPolygon(rings);
      },
    };
  };
}
