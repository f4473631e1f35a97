import type { Path64, Paths64, Point64 } from 'clipper2-ts';

/**
 * The same region by the NonZero rule with fewer sides: every side that another path runs the
 * other way exactly (the boundary two neighbouring pieces share, vertex for vertex, as Clipper
 * writes them) is dropped with its twin, and what is left is walked into closed paths again.
 *
 * The pieces that cut an area, or that the base ground is cut from, are neighbours along most of
 * their boundaries (40 % of their sides in a city): Clipper's sweep costs about the number of sides
 * times the number crossing a scanline, and the shared ones only ever cancel out inside it. Each
 * dropped pair takes one side into and one out of each of its two ends away, so the sides left
 * still close up into paths, and the winding number is the same everywhere; the paths may touch
 * themselves or each other at corners, which the NonZero rule does not mind. Paths of fewer than
 * three points or of coordinates beyond ±2^25 (33 km on the millimetre grid) leave the input as it
 * is.
 */
export function withoutSharedSides(paths: Paths64): Paths64 {
  let total = 0;
  for (const p of paths) total += p.length;
  if (total < 8) return paths;
  const points: Point64[] = [];
  const ids = pairTable(total);
  const from = new Int32Array(total),
    to = new Int32Array(total);
  let sides = 0;
  for (const path of paths) {
    const n = path.length;
    if (n < 3) return paths;
    for (let i = 0; i < n; i++) {
      const a = path[i],
        b = path[i + 1 < n ? i + 1 : 0];
      if (a.x === b.x && a.y === b.y) continue;
      const ia = pointId(a, ids, points),
        ib = pointId(b, ids, points);
      if (ia < 0 || ib < 0) return paths;
      from[sides] = ia;
      to[sides] = ib;
      sides++;
    }
  }
  // cancel each side against an earlier, still open side running the other way
  // open sides by their ends: the latest in the table, earlier ones with the same ends below it
  const n = points.length;
  const open = pairTable(sides);
  const below = new Int32Array(sides);
  const alive = new Uint8Array(sides).fill(1);
  let dropped = 0;
  for (let e = 0; e < sides; e++) {
    const back = open.find(to[e], from[e]);
    if (back >= 0 && open.value[back] >= 0) {
      const b = open.value[back];
      open.value[back] = below[b];
      alive[b] = 0;
      alive[e] = 0;
      dropped += 2;
      continue;
    }
    const slot = open.slot(from[e], to[e]);
    below[e] = open.value[slot];
    open.value[slot] = e;
  }
  if (dropped === 0) return paths;
  // the sides left, by the point they leave from, walked into closed paths
  const first = new Int32Array(n).fill(-1),
    next = new Int32Array(sides).fill(-1);
  for (let e = sides - 1; e >= 0; e--) {
    if (!alive[e]) continue;
    next[e] = first[from[e]];
    first[from[e]] = e;
  }
  const out: Paths64 = [];
  for (let e = 0; e < sides; e++) {
    if (!alive[e]) continue;
    const path: Path64 = [];
    let cur = e;
    while (cur >= 0) {
      alive[cur] = 0;
      path.push(points[from[cur]]);
      // the next side out of this one's end that is still left
      const at = to[cur];
      let f = first[at];
      while (f >= 0 && !alive[f]) f = next[f];
      first[at] = f >= 0 ? next[f] : -1;
      cur = f;
    }
    const clean = withoutSpikes(path);
    if (clean.length >= 3) out.push(clean);
  }
  return out;
}

/**
 * The path without the spikes the walk leaves where two sides overlap along part of their length
 * (they do not cancel): a corner whose sides double back along one line covers nothing, and
 * clipper2-ts can loop forever on such paths. Dropping the corner keeps every winding number.
 */
function withoutSpikes(path: Path64): Path64 {
  const out: Path64 = [];
  for (const p of path) {
    out.push(p);
    while (out.length >= 3 && backtracks(out[out.length - 3], out[out.length - 2], out[out.length - 1])) out.splice(out.length - 2, 1);
  }
  // across the closing corner, until nothing changes
  for (let changed = true; changed && out.length >= 3; ) {
    changed = false;
    const n = out.length;
    if (backtracks(out[n - 2], out[n - 1], out[0])) {
      out.pop();
      changed = true;
      continue;
    }
    if (backtracks(out[n - 1], out[0], out[1])) {
      out.shift();
      changed = true;
    }
  }
  return out;
}

/** Corner b between a and c doubles back along one line (or repeats a point). */
function backtracks(a: Point64, b: Point64, c: Point64): boolean {
  const ux = b.x - a.x,
    uy = b.y - a.y,
    vx = c.x - b.x,
    vy = c.y - b.y;
  if ((ux === 0 && uy === 0) || (vx === 0 && vy === 0)) return true;
  return ux * vy - uy * vx === 0 && ux * vx + uy * vy < 0;
}

const LIMIT = 2 ** 25;

function pointId(p: Point64, ids: PairTable, points: Point64[]): number {
  if (p.x <= -LIMIT || p.x >= LIMIT || p.y <= -LIMIT || p.y >= LIMIT) return -1;
  const slot = ids.slot(p.x, p.y);
  let id = ids.value[slot];
  if (id < 0) {
    id = ids.value[slot] = points.length;
    points.push(p);
  }
  return id;
}

/**
 * An open-addressing table from pairs of 32-bit integers (grid points, ends of sides) to an
 * integer, −1 when unset: a Map keyed by the pair packed into one number hashed a heap number per
 * side and was half this module's time.
 */
interface PairTable {
  value: Int32Array;
  /** The slot of the pair, taken for it when new (value −1). */
  slot(a: number, b: number): number;
  /** The slot of the pair, −1 when it has none. */
  find(a: number, b: number): number;
}

function pairTable(count: number): PairTable {
  let size = 16;
  while (size < 2 * count) size *= 2;
  const mask = size - 1;
  const ka = new Int32Array(size),
    kb = new Int32Array(size),
    used = new Uint8Array(size);
  const value = new Int32Array(size).fill(-1);
  const hash = (a: number, b: number) => (Math.imul(a, 0x9e3779b1) ^ Math.imul(b ^ (b >>> 15), 0x85ebca77)) & mask;
  return {
    value,
    slot(a, b) {
      let h = hash(a, b);
      while (used[h] && (ka[h] !== a || kb[h] !== b)) h = (h + 1) & mask;
      if (!used[h]) {
        used[h] = 1;
        ka[h] = a;
        kb[h] = b;
      }
      return h;
    },
    find(a, b) {
      let h = hash(a, b);
      while (used[h]) {
        if (ka[h] === a && kb[h] === b) return h;
        h = (h + 1) & mask;
      }
      return -1;
    },
  };
}
