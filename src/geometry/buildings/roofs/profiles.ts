/**
 * Roof profiles: height (as a fraction of the roof height) against the plan scalar `s`, as
 * piecewise-linear breakpoints. Curved roofs are sampled finely enough to look round.
 *
 * Two families of `s`: "across" profiles run over the whole width of a one-ridge roof
 * (0 = one eave, 1 = the other); "inset" profiles run from the eaves (0) to the top (1), on a
 * straight skeleton (s = offset time / max time) or on a fan towards an apex.
 */
export interface Profile {
  /** Increasing breakpoints of `s`. */
  s: readonly number[];
  /** Height at each breakpoint, 0…1 of the roof height. */
  h: readonly number[];
  /** Radial scale at each breakpoint (fan roofs only; 1 at the eaves, 0 at the apex): lets an onion bulge out. */
  r?: readonly number[];
}

/** Height fraction at `s` (linear between breakpoints, clamped at the ends). */
export function profileHeight(profile: Profile, s: number): number {
  const { s: xs, h } = profile;
  if (s <= xs[0]) return h[0];
  for (let i = 1; i < xs.length; i++) {
    if (s <= xs[i]) {
      if (s === xs[i]) return h[i];
      const t = (s - xs[i - 1]) / (xs[i] - xs[i - 1]);
      return h[i - 1] + t * (h[i] - h[i - 1]);
    }
  }
  return h[h.length - 1];
}

/** Breakpoints strictly inside the profile's range: where facets must be cut. */
export function innerLevels(profile: Profile): number[] {
  return profile.s.slice(1, -1);
}

const arc = (segments: number, from: number, to: number) => Array.from({ length: segments + 1 }, (_, k) => from + ((to - from) * k) / segments);

/** Rounds away trigonometric dust so the ends are exactly 0 and 1. */
const clean = (values: number[]) => values.map((v) => (Math.abs(v) < 1e-12 ? 0 : Math.abs(v - 1) < 1e-12 ? 1 : v));

// --- inset profiles (eaves → top) ---

export const LINEAR: Profile = { s: [0, 1], h: [0, 1] };

/** Steep lower band to 75 % of the height at a fifth of the inset, then a gentle top. */
export const MANSARD: Profile = { s: [0, 0.2, 1], h: [0, 0.75, 1] };

/** Barn roof seen from an eave: steep lower slope, gentle upper slope. */
export const GAMBREL_INSET: Profile = { s: [0, 0.3, 1], h: [0, 0.65, 1] };

/** Hipped slopes reaching full height halfway in, flat deck above. */
export const QUADRUPLE_SALTBOX: Profile = { s: [0, 0.5, 1], h: [0, 1, 1] };

/** Quarter circle from a vertical eave to a horizontal top. */
export const QUARTER_CIRCLE: Profile = (() => {
  const angles = arc(8, 0, Math.PI / 2);
  return { s: clean(angles.map((a) => 1 - Math.cos(a))), h: clean(angles.map((a) => Math.sin(a))) };
})();

/** Onion: bulges to ~1.3× the footprint a quarter of the way up, then draws in to a point. */
export const ONION: Profile = (() => {
  const r = [1.0, 1.17, 1.27, 1.31, 1.28, 1.18, 1.01, 0.8, 0.58, 0.38, 0.21, 0.08, 0.0];
  const h = [0.0, 0.06, 0.14, 0.23, 0.33, 0.43, 0.52, 0.61, 0.7, 0.78, 0.86, 0.93, 1.0];
  return { s: r.map((_, k) => k / (r.length - 1)), h, r };
})();

// --- across profiles (eave → ridge → eave) ---

export const GABLE_ACROSS: Profile = { s: [0, 0.5, 1], h: [0, 1, 0] };

/** Short steep slope on the s = 0 side, the long slope facing s = 1. */
export const SALTBOX_ACROSS: Profile = { s: [0, 0.35, 1], h: [0, 1, 0] };

export const GAMBREL_ACROSS: Profile = { s: [0, 0.15, 0.5, 0.85, 1], h: [0, 0.65, 1, 0.65, 0] };

/** Half circle (barrel vault). */
export const ROUND_ACROSS: Profile = (() => {
  const angles = arc(12, Math.PI, 0);
  return { s: clean(angles.map((a) => (1 + Math.cos(a)) / 2)), h: clean(angles.map((a) => Math.sin(a))) };
})();

/** Single slope: high at s = 0, down to the eave at s = 1. */
export const SKILLION_ACROSS: Profile = { s: [0, 1], h: [1, 0] };
