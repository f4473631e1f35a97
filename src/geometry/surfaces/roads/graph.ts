/**
 * The road graph of one network: ways cut into segments at the nodes where they meet.
 *
 * Ways meet where they share an OSM node, and a shared node has bit-identical coordinates in every
 * way that uses it (each tile projects one node once), so vertices are matched by exact equality —
 * no snapping tolerance that could merge two nodes a few centimetres apart or miss a real one. A
 * vertex splits its way when it is an end of an open way or when it occurs more than once (in
 * another way, or again in the same way: a loop). Each segment runs between two such vertices; the
 * node at each end lists the segment ends (arms) that meet there: an open way's end is one arm, a
 * way passing through is two. A node with three or more arms is a junction, two is a join (a way
 * split for a tag change, or a bend between two ways), one is a dead end. A closed way (first
 * vertex = last) that meets nothing is one ring segment without ends.
 */

export interface GraphWay {
  /** Flat [x0, y0, x1, y1, …] in local metres. */
  points: readonly number[];
}

export interface RoadSegment {
  /** Index of the way in the input. */
  way: number;
  /** Flat vertices; consecutive vertices are distinct. A ring lists each vertex once. */
  pts: Float64Array;
  /** Distance along the segment at each vertex (for a ring, cum[n] closes the loop). */
  cum: Float64Array;
  /** Unit direction of each edge [dx, dy, …] (a ring has n edges, the last one closing it). */
  dir: Float64Array;
  /** Length of each edge. */
  len: Float64Array;
  length: number;
  /** Node index at the start and at the end; -1 for a ring. */
  start: number;
  end: number;
  ring: boolean;
  /** Distance along the whole way to this segment's first vertex (bridge decks interpolate along it). */
  wayOffset: number;
}

export interface RoadArm {
  segment: number;
  /** True when the segment starts at the node (it leaves the node in its own direction). */
  atStart: boolean;
}

export interface RoadNode {
  x: number;
  y: number;
  arms: RoadArm[];
}

export interface RoadGraph {
  segments: RoadSegment[];
  nodes: RoadNode[];
}

/** Vertices of a way with consecutive duplicates dropped. */
function distinctVertices(points: readonly number[]): number[] {
  const out: number[] = [];
  for (let i = 0; i + 1 < points.length; i += 2) {
    const x = points[i],
      y = points[i + 1];
    if (!Number.isFinite(x) || !Number.isFinite(y)) continue;
    const m = out.length;
    if (m >= 2 && out[m - 2] === x && out[m - 1] === y) continue;
    out.push(x, y);
  }
  return out;
}

/**
 * Vertices matched by exact coordinates: x, then y (numbers as Map keys compare like `===`, but
 * +0 and −0 alike, as their strings did; a string key per vertex cost a number-to-text conversion
 * each, the most of the graph's time).
 */
class VertexMap<T> {
  private readonly byX = new Map<number, Map<number, T>>();
  get(x: number, y: number): T | undefined {
    return this.byX.get(x)?.get(y);
  }
  set(x: number, y: number, value: T): void {
    let ys = this.byX.get(x);
    if (!ys) this.byX.set(x, (ys = new Map()));
    ys.set(y, value);
  }
}

/** Builds the segment geometry arrays; `ring` closes the last vertex back to the first. */
export function makeSegment(way: number, flat: number[], ring: boolean, start: number, end: number, wayOffset: number): RoadSegment {
  const n = flat.length / 2;
  const pts = Float64Array.from(flat);
  const edges = ring ? n : n - 1;
  const dir = new Float64Array(2 * edges);
  const len = new Float64Array(edges);
  const cum = new Float64Array(edges + 1);
  for (let e = 0; e < edges; e++) {
    const f = (e + 1) % n;
    const dx = pts[2 * f] - pts[2 * e],
      dy = pts[2 * f + 1] - pts[2 * e + 1];
    const l = Math.hypot(dx, dy);
    len[e] = l;
    dir[2 * e] = dx / l;
    dir[2 * e + 1] = dy / l;
    cum[e + 1] = cum[e] + l;
  }
  return { way, pts, cum, dir, len, length: cum[edges], start, end, ring, wayOffset };
}

/** Splits the ways at shared vertices and open ends (see the module comment). */
export function buildRoadGraph(ways: readonly GraphWay[]): RoadGraph {
  const verts: number[][] = [];
  const closed: boolean[] = [];
  const count = new VertexMap<number>();
  for (const way of ways) {
    let v = distinctVertices(way.points);
    const n = v.length / 2;
    let isClosed = false;
    if (n >= 4 && v[0] === v[2 * n - 2] && v[1] === v[2 * n - 1]) {
      isClosed = true;
      v = v.slice(0, 2 * n - 2);
    }
    verts.push(v);
    closed.push(isClosed);
    if (v.length < 4) continue;
    for (let i = 0; i < v.length; i += 2) count.set(v[i], v[i + 1], (count.get(v[i], v[i + 1]) ?? 0) + 1);
  }

  const nodes: RoadNode[] = [];
  const nodeIndex = new VertexMap<number>();
  const nodeAt = (x: number, y: number): number => {
    let i = nodeIndex.get(x, y);
    if (i === undefined) {
      i = nodes.length;
      nodes.push({ x, y, arms: [] });
      nodeIndex.set(x, y, i);
    }
    return i;
  };

  const segments: RoadSegment[] = [];
  const addSegment = (way: number, flat: number[], start: number, end: number, offset: number) => {
    const s = makeSegment(way, flat, false, start, end, offset);
    const index = segments.length;
    segments.push(s);
    nodes[start].arms.push({ segment: index, atStart: true });
    nodes[end].arms.push({ segment: index, atStart: false });
    return s.length;
  };

  // a loop, not forEach: a callback is a closure whose optimised code V8 drops at every full collection
  for (let way = 0; way < verts.length; way++) {
    const v = verts[way];
    const n = v.length / 2;
    if (n < 2) continue;
    if (!closed[way] && n === 2 && v[0] === v[2] && v[1] === v[3]) continue;
    const split: number[] = [];
    for (let i = 0; i < n; i++) {
      const isEnd = !closed[way] && (i === 0 || i === n - 1);
      if (isEnd || (count.get(v[2 * i], v[2 * i + 1]) ?? 0) > 1) split.push(i);
    }
    if (closed[way]) {
      if (split.length === 0) {
        segments.push(makeSegment(way, v, true, -1, -1, 0));
        continue;
      }
      // cyclic pieces between consecutive split vertices, starting at the first one
      let offset = 0;
      for (let i = 0; i < split.length; i++) {
        const a = split[i],
          b = split[(i + 1) % split.length];
        const flat: number[] = [];
        let j = a;
        do {
          flat.push(v[2 * j], v[2 * j + 1]);
          j = (j + 1) % n;
        } while (j !== b);
        flat.push(v[2 * b], v[2 * b + 1]);
        offset += addSegment(way, flat, nodeAt(v[2 * a], v[2 * a + 1]), nodeAt(v[2 * b], v[2 * b + 1]), offset);
      }
      continue;
    }
    let offset = 0;
    for (let i = 0; i + 1 < split.length; i++) {
      const a = split[i],
        b = split[i + 1];
      offset += addSegment(way, v.slice(2 * a, 2 * b + 2), nodeAt(v[2 * a], v[2 * a + 1]), nodeAt(v[2 * b], v[2 * b + 1]), offset);
    }
  }
  return { segments, nodes };
}
