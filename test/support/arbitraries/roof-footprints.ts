/**
 * fast-check generators of building footprints for the roof tests: rectangles, L/T/U shapes,
 * convex and star-shaped polygons, courtyards (holes), chamfered corners (edges of a few cm),
 * vertices a few millimetres off a straight side, clockwise or counter-clockwise, anywhere in a
 * 1 km frame. Raw output: run it through normalizeFootprint like the pipeline does.
 */
import fc from 'fast-check';
import type { Footprint, Ring } from '../../../src/geometry/types.ts';

export type FootprintKind = 'rectangle' | 'L' | 'T' | 'U' | 'convex' | 'star' | 'courtyard' | 'chamfered' | 'wobbly';

export interface GeneratedFootprint {
  kind: FootprintKind;
  footprint: Footprint;
}

const len = (min: number, max: number) => fc.double({ min, max, noNaN: true, noDefaultInfinity: true });

/** Rotates, moves and optionally reverses every ring. */
function place(rings: Ring[], angle: number, dx: number, dy: number, reverse: boolean): Ring[] {
  const c = Math.cos(angle),
    s = Math.sin(angle);
  return rings.map((ring) => {
    const out: number[] = [];
    for (let i = 0; i < ring.length; i += 2) out.push(ring[i] * c - ring[i + 1] * s + dx, ring[i] * s + ring[i + 1] * c + dy);
    if (!reverse) return out;
    const rev: number[] = [];
    for (let i = out.length - 2; i >= 0; i -= 2) rev.push(out[i], out[i + 1]);
    return rev;
  });
}

const placement = fc.record({
  angle: len(0, 2 * Math.PI),
  dx: len(-500, 500),
  dy: len(-500, 500),
  reverse: fc.boolean(),
});

const rectangle = fc.record({ w: len(3, 40), h: len(3, 40) }).map(({ w, h }) => [[0, 0, w, 0, w, h, 0, h]]);

const lShape = fc
  .record({ w: len(6, 40), h: len(6, 40), a: len(0.2, 0.8), b: len(0.2, 0.8) })
  .map(({ w, h, a, b }) => [[0, 0, w, 0, w, h * b, w * a, h * b, w * a, h, 0, h]]);

const tShape = fc.record({ w: len(9, 40), h: len(6, 40), stem: len(0.2, 0.6), bar: len(0.2, 0.6), shift: len(-0.2, 0.2) }).map(({ w, h, stem, bar, shift }) => {
  const x0 = w * (0.5 - stem / 2 + shift * (1 - stem)),
    x1 = x0 + w * stem,
    y = h * (1 - bar);
  return [[x0, 0, x1, 0, x1, y, w, y, w, h, 0, h, 0, y, x0, y]];
});

const uShape = fc.record({ w: len(9, 40), h: len(6, 40), arm: len(0.15, 0.4), base: len(0.2, 0.6) }).map(({ w, h, arm, base }) => {
  const a = w * arm,
    y = h * base;
  return [[0, 0, w, 0, w, h, w - a, h, w - a, y, a, y, a, h, 0, h]];
});

/** Angles around a full turn from positive gap weights: every gap below a half turn for n ≥ 5. */
const angles = (min: number, max: number) =>
  fc.array(len(1, 3), { minLength: min, maxLength: max }).map((weights) => {
    const total = weights.reduce((a, b) => a + b, 0);
    let acc = 0;
    return weights.map((w) => {
      const t = (acc / total) * 2 * Math.PI;
      acc += w;
      return t;
    });
  });

/** Points on an ellipse in angular order: always convex. */
const convex = fc
  .record({ rx: len(3, 30), ry: len(3, 30), angles: angles(3, 24) })
  .map(({ rx, ry, angles: ts }) => [ts.flatMap((t) => [rx * Math.cos(t), ry * Math.sin(t)])]);

/** Random radii in angular order: star-shaped around the origin, usually concave. */
const star = fc
  .record({ angles: angles(5, 16), radii: fc.array(len(4, 25), { minLength: 16, maxLength: 16 }) })
  .map(({ angles: ts, radii }) => [ts.flatMap((t, k) => [radii[k] * Math.cos(t), radii[k] * Math.sin(t)])]);

const courtyard = fc
  .record({ w: len(10, 60), h: len(10, 60), fx: len(0.2, 0.6), fy: len(0.2, 0.6), ox: len(0.1, 0.9), oy: len(0.1, 0.9) })
  .map(({ w, h, fx, fy, ox, oy }) => {
    const hw = w * fx,
      hh = h * fy;
    const x0 = (w - hw) * ox,
      y0 = (h - hh) * oy;
    return [
      [0, 0, w, 0, w, h, 0, h],
      [x0, y0, x0, y0 + hh, x0 + hw, y0 + hh, x0 + hw, y0],
    ];
  });

/** A rectangle with one corner cut by a chamfer of 1.5–6 cm: a near-degenerate edge. */
const chamfered = fc.record({ w: len(4, 40), h: len(4, 40), cut: len(0.015, 0.06) }).map(({ w, h, cut }) => [[0, 0, w - cut, 0, w, cut, w, h, 0, h]]);

/** A rectangle or L whose sides carry extra vertices 0–3 mm off the straight line. */
const wobbly = fc
  .record({ base: fc.oneof(rectangle, lShape), offsets: fc.array(len(-0.003, 0.003), { minLength: 1, maxLength: 12 }) })
  .map(({ base, offsets }) => {
    const ring = base[0];
    const n = ring.length / 2;
    const out: number[] = [];
    for (let i = 0; i < n; i++) {
      const j = (i + 1) % n;
      out.push(ring[2 * i], ring[2 * i + 1]);
      const off = offsets[i % offsets.length];
      const dx = ring[2 * j] - ring[2 * i],
        dy = ring[2 * j + 1] - ring[2 * i + 1];
      const l = Math.hypot(dx, dy);
      for (const t of [0.3, 0.55]) out.push(ring[2 * i] + dx * t - (dy / l) * off, ring[2 * i + 1] + dy * t + (dx / l) * off);
    }
    return [out];
  });

const shapes: Record<FootprintKind, fc.Arbitrary<Ring[]>> = {
  rectangle,
  L: lShape,
  T: tShape,
  U: uShape,
  convex,
  star,
  courtyard,
  chamfered,
  wobbly,
};

/** A footprint of the given kinds (all kinds by default), placed anywhere and either way round. */
export function footprintArbitrary(kinds: readonly FootprintKind[] = Object.keys(shapes) as FootprintKind[]): fc.Arbitrary<GeneratedFootprint> {
  return fc.oneof(
    ...kinds.map((kind) =>
      fc.tuple(shapes[kind], placement).map(([rings, p]) => {
        const placed = place(rings, p.angle, p.dx, p.dy, p.reverse);
        return { kind, footprint: { outer: placed[0], holes: placed.slice(1) } };
      }),
    ),
  );
}
