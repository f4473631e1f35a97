import type { Footprint } from '../../types.ts';
import type { RoofShape, RoofSpec } from './types.ts';
import { ringArea } from '../../ring.ts';
import type { RoofPlan } from './plan.ts';
import { planFromFan, planFromFootprint } from './plan.ts';
import type { Profile } from './profiles.ts';
import { innerLevels } from './profiles.ts';
import { refinePlan } from './refine.ts';
import { liftPlan } from './emit.ts';
import { roofAxes, minimumAreaRectangle } from './ridge.ts';
import { footprintSkeleton, skeletonOf, type FootprintSkeleton } from '../../skeleton/index.ts';
import { planFromSkeleton } from './skeleton-plan.ts';
import type { SkeletonPlan } from './skeleton-plan.ts';
import { starApex } from './kernel.ts';
import { isConvexRing } from '../../planar/polygon-checks.ts';

/**
 * The three constructions every roof shape is made from, each a plan plus a profile:
 * - across: one straight ridge (or slope) across the whole footprint, for rectangles and other
 *   convex footprints and wherever roof:direction/orientation must be honoured;
 * - skeleton: the straight skeleton, for any footprint including L/T/U shapes and courtyards;
 * - fan: slopes from every side up to one apex, for star-shaped footprints (pyramid, dome, onion).
 */

export interface RoofContext {
  /** Normalised footprint: outer ring counter-clockwise, holes clockwise. */
  footprint: Footprint;
  wallTopZ: number;
  roof: RoofSpec;
}

/** A roof ready to emit: the refined plan and the absolute height of each plan vertex. */
export interface RoofDesign {
  plan: RoofPlan;
  z: number[];
}

/** One way of building one roof shape; `build` says why not when it cannot. */
export interface RoofStrategy {
  /** Stable name, e.g. `gabled/skeleton`. */
  name: string;
  shape: RoofShape;
  build(ctx: RoofContext): RoofDesign | string;
}

function finish(plan: RoofPlan, profile: Profile, ctx: RoofContext, metresPerUnit: number): RoofDesign {
  const refined = refinePlan(plan, innerLevels(profile), metresPerUnit);
  return { plan: refined, z: liftPlan(refined, profile, ctx.wallTopZ, ctx.roof.height) };
}

/**
 * True when one straight ridge fits the footprint naturally: no courtyard, and either nearly its
 * minimum bounding rectangle (a rectangle, even with small jogs and notches: `nearFill`), or convex
 * and reasonably full (`convexFill`), or convex with an explicit roof:direction/orientation.
 */
export function suitsOneRidge(ctx: RoofContext, convexFill = 0.85, nearFill = 0.9): boolean {
  const { footprint, roof } = ctx;
  if (footprint.holes.length > 0) return false;
  const fill = ringArea(footprint.outer) / minimumAreaRectangle(footprint.outer).area;
  if (fill >= nearFill) return true;
  if (!isConvexRing(footprint.outer)) return false;
  const explicit = (roof.direction !== undefined && Number.isFinite(roof.direction)) || roof.orientation !== undefined;
  return explicit || fill >= convexFill;
}

/**
 * One ridge (or one slope) across the footprint: `s` runs from 0 on the uphill/back side to 1 on
 * the side the roof faces, so the profile is read across the roof.
 */
export function acrossDesign(ctx: RoofContext, profile: Profile): RoofDesign | string {
  const { across } = roofAxes(ctx.footprint.outer, ctx.roof);
  let min = Infinity,
    max = -Infinity;
  const outer = ctx.footprint.outer;
  for (let i = 0; i < outer.length; i += 2) {
    const v = outer[i] * across[0] + outer[i + 1] * across[1];
    min = Math.min(min, v);
    max = Math.max(max, v);
  }
  const width = max - min;
  if (!(width > 0)) return 'the footprint has no width';
  const plan = planFromFootprint(ctx.footprint, (x, y) => {
    const v = x * across[0] + y * across[1];
    return v <= min ? 0 : v >= max ? 1 : (v - min) / width;
  });
  if (!plan) return 'the footprint cannot be triangulated';
  return finish(plan, profile, ctx, width);
}

/** Straight-skeleton roof with an inset profile; with `gables`, ridge ends become gables (none found is a failure, unless there is a courtyard). */
export function skeletonDesign(ctx: RoofContext, profile: Profile, gables: boolean): RoofDesign | string {
  let skeleton = skeletonOf(ctx.footprint);
  if (typeof skeleton === 'string') return skeleton;
  let result = planFromSkeletonTolerant(ctx, skeleton, gables);
  if (typeof result === 'string' && !skeleton.exact) {
    // The fast skeleton's faces did not make a plan: try CGAL's.
    const exact = footprintSkeleton(ctx.footprint);
    if (typeof exact !== 'string') {
      skeleton = exact;
      result = planFromSkeletonTolerant(ctx, exact, gables);
    }
  }
  if (typeof result === 'string') return result;
  // Around a courtyard the wings may run all the way round with no end: then no gable is right.
  if (gables && result.gableSides.length === 0 && ctx.footprint.holes.length === 0) return 'no ridge end to put a gable on';
  return finish(result.plan, profile, ctx, skeleton.maxT);
}

/** Nodes closer than 5 mm are merged (float noise); where that pinches a face, only those closer than 1 mm. */
function planFromSkeletonTolerant(ctx: RoofContext, skeleton: FootprintSkeleton, gables: boolean): SkeletonPlan | string {
  const first = planFromSkeleton(ctx.footprint, skeleton, { gables, mergeDistance: 0.005 });
  return typeof first === 'string' ? planFromSkeleton(ctx.footprint, skeleton, { gables, mergeDistance: 0.001 }) : first;
}

/**
 * Slopes from every side up to one apex. A profile with radii (`r`) moves each level's ring
 * outwards or inwards about the apex, which lets an onion bulge past the walls.
 */
export function fanDesign(ctx: RoofContext, profile: Profile): RoofDesign | string {
  if (ctx.footprint.holes.length > 0) return 'a footprint with a courtyard has no single apex';
  const apex = starApex(ctx.footprint.outer);
  if (!apex) return 'no point of the footprint sees all its sides';
  const design = finish(planFromFan(ctx.footprint, apex[0], apex[1]), profile, ctx, 0);
  if (profile.r) warpRadially(design.plan, profile, apex);
  return design;
}

function warpRadially(plan: RoofPlan, profile: Profile, apex: [number, number]): void {
  const r = profile.r!;
  for (let i = plan.ringVertexCount; i < plan.x.length; i++) {
    const s = plan.s[i];
    const k = profile.s.indexOf(s);
    if (s >= 1 || k < 0) {
      if (s >= 1) {
        plan.x[i] = apex[0];
        plan.y[i] = apex[1];
      }
      continue;
    }
    const factor = r[k] / (1 - s);
    plan.x[i] = apex[0] + (plan.x[i] - apex[0]) * factor;
    plan.y[i] = apex[1] + (plan.y[i] - apex[1]) * factor;
  }
}

/** Shorthand for a strategy. */
export function strategy(name: string, shape: RoofShape, build: (ctx: RoofContext) => RoofDesign | string): RoofStrategy {
  return { name, shape, build };
}
