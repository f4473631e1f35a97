import type { ResponseWarning } from '../contract/response-schema.ts';

/** Samples of the terrain a request read, and how many of them a DEM covered. */
export interface CoverageTally {
  covered: number;
  samples: number;
  /** Some sample (margins included) had data: there is real ground to fill the rest from. */
  any: boolean;
}

/**
 * The warnings about elevation data (docs/design.md "Warnings"): `elevation_unavailable` when no
 * configured source covers any of the area (no terrain returned, geometry on z = 0),
 * `elevation_partial` when some of the returned or used terrain had to be filled from covered
 * neighbours.
 */
export function elevationWarnings(c: CoverageTally): ResponseWarning[] {
  if (!c.any) {
    return [
      {
        code: 'elevation_unavailable',
        message: 'No configured elevation source covers this area, so no terrain is returned and geometry stands on z = 0.',
        details: { coveredShare: 0 },
      },
    ];
  }
  if (c.covered >= c.samples) return [];
  const coveredShare = Math.floor((c.covered / c.samples) * 1000) / 1000; // rounded down: never claims full cover
  return [
    {
      code: 'elevation_partial',
      message: `Elevation data covers ${(coveredShare * 100).toFixed(1)}% of the terrain; the rest is filled from the nearest covered ground.`,
      details: { coveredShare },
    },
  ];
}
