import type { SkeletonStats } from './types.ts';

/** Counters of the skeleton constructions since the last reset, for the bench (one set per thread). */
export const stats: SkeletonStats = { calls: 0, failures: 0, ms: 0, convexCalls: 0, convexMs: 0, wavefrontCalls: 0, wavefrontRejected: 0, wavefrontMs: 0 };

/** Calls, failures and time spent inside the skeleton since the last reset (for the bench). */
export function skeletonStats(): SkeletonStats {
  return { ...stats };
}

export function resetSkeletonStats(): void {
  stats.calls = 0;
  stats.failures = 0;
  stats.ms = 0;
  stats.convexCalls = 0;
  stats.convexMs = 0;
  stats.wavefrontCalls = 0;
  stats.wavefrontRejected = 0;
  stats.wavefrontMs = 0;
}
