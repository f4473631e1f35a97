/**
 * Turns the tiles' encoded groups of an export request into an ExportScene (runs in a worker).
 * The export's pipeline run asks the tiles for local, Z-up, indexed geometry with terrain as
 * meshes (src/export/run-export.ts), so every item here is `{vertices, indices, descriptor}`,
 * a node `{type, x, y, z, rotation, scale, descriptor}` or a polyline `{vertices, closed, descriptor}`
 * in local metres; the export frame then moves them into the file's CRS, placement and units.
 *
 * Meshes come as binary chunks of exact doubles (encode/mesh-binary.ts), the other items as JSON.
 * Precision: the JSON items carry micrometres (plan-request.ts EXPORT_DECIMALS) of geometry built
 * on a millimetre grid, the meshes the doubles themselves, so a point is within 0.71 mm of its
 * exact position before reprojection, and the frame and the writers keep doubles (docs/exports.md
 * "Precision").
 */
import { exportedOutputs, type GeometryType } from '../contract/groups.ts';
import { isMeshBinary, readMeshBinary } from '../encode/mesh-binary.ts';
import { cablePoints } from '../geometry/instances/models/cable.ts';
import type { ExportFrame } from './georef.ts';
import type { ExportGroup, ExportGroupName, ExportMesh, ExportNode, ExportPolyline, ExportScene } from './scene.ts';

/** One group as the pipeline produced it: its key (`buildings`, `topography:meshes`, …) and its comma-joined JSON chunks. */
export interface EncodedGroup {
  key: string;
  chunks: Uint8Array[];
}

/** Where an output key's items go in an export: its scene group, what its items are, and the group's place in the writers' order. */
export interface ExportTarget {
  group: ExportGroupName;
  geometryType: GeometryType;
  rank: number;
}

/**
 * The export target of an output key, from the group table as this thread knows it (the main
 * thread sends targets with its `declare`s, export-stream.ts, so groups registered only there
 * reach the files too); null for outputs exports leave out (elevation maps).
 */
export function exportTargetOf(key: string): ExportTarget | null {
  const outputs = exportedOutputs();
  const n = outputs.findIndex((o) => o.key === key);
  return n < 0 ? null : { group: outputs[n].exportGroup, geometryType: outputs[n].geometryType, rank: n };
}

export interface SceneInput {
  name: string;
  groups: EncodedGroup[];
  attribution: string[];
}

const EMPTY = new Uint8Array(0);

/** An item as it is parsed, for a writer that takes items one by one instead of a whole scene. */
export type SceneItem = { kind: 'mesh'; item: ExportMesh } | { kind: 'polyline'; item: ExportPolyline } | { kind: 'node'; item: ExportNode };

/** Where parsed items go instead of the scene (a streaming writer, e.g. 3dm). */
export type SceneItemSink = (group: ExportGroupName, item: SceneItem) => void;

/**
 * Builds the scene chunk by chunk, as the tiles' groups arrive (src/export/export-task.ts), so
 * parsing overlaps the tiles still running. With `sink`, items go there instead of into the
 * scene's groups (which stay empty), so a streaming writer holds no second copy.
 */
export class SceneBuilder {
  private readonly groups = new Map<ExportGroupName, ExportGroup>();
  private readonly targets = new Map<string, ExportTarget>();
  private readonly decoder = new TextDecoder();

  constructor(
    private readonly frame: ExportFrame,
    private readonly sink?: SceneItemSink,
  ) {}

  /** A group the answer has, even when no chunk comes for it; null for keys exports never ask for (elevation maps). */
  declare(key: string, target: ExportTarget | null = exportTargetOf(key)): ExportGroup | null {
    if (!target) return null;
    this.targets.set(key, target);
    let group = this.groups.get(target.group);
    if (!group) this.groups.set(target.group, (group = { name: target.group, meshes: [], polylines: [], nodes: [] }));
    return group;
  }

  /** The group names declared so far, in the writers' order. */
  groupNames(): ExportGroupName[] {
    const rank = new Map<ExportGroupName, number>();
    for (const t of this.targets.values()) rank.set(t.group, Math.min(rank.get(t.group) ?? Infinity, t.rank));
    return [...rank.keys()].sort((a, b) => rank.get(a)! - rank.get(b)!);
  }

  /**
   * One chunk of group `key`: comma-joined JSON items, or a binary mesh chunk (the tiles' meshes,
   * encode/mesh-binary.ts), whose positions are moved into the file's frame in place and kept as
   * views of the chunk (so the chunk is the scene's: never add the same one twice).
   */
  add(key: string, chunk: Uint8Array): void {
    const target = this.targets.get(key) ?? exportTargetOf(key);
    const group = target && this.declare(key, target);
    if (!group || chunk.length === 0) return;
    const frame = this.frame;
    if (isMeshBinary(chunk)) {
      if (target.geometryType !== 'meshes') throw new Error(`binary mesh chunk for ${key}, whose items are ${target.geometryType}`);
      for (const m of readMeshBinary(chunk)) {
        frame.transform(m.positions);
        this.put(group, { kind: 'mesh', item: exportMesh(m.descriptor, m.positions, m.indices, group.name, group.meshes.length) });
      }
      return;
    }
    // one chunk at a time: a whole 10 km² group as one string could pass V8's string limit
    const items = JSON.parse(`[${this.decoder.decode(chunk)}]`) as Record<string, unknown>[];
    for (const item of items) {
      if (target.geometryType === 'nodes')
        this.put(group, item.type === 'wire' ? { kind: 'polyline', item: toCable(item, frame) } : { kind: 'node', item: toNode(item, frame) });
      else if (target.geometryType === 'polylines') this.put(group, { kind: 'polyline', item: toPolyline(item, frame, group.polylines.length) });
      else this.put(group, { kind: 'mesh', item: toMesh(item, group.name, frame, group.meshes.length) });
    }
  }

  private put(group: ExportGroup, it: SceneItem): void {
    if (this.sink) {
      this.sink(group.name, it);
      return;
    }
    if (it.kind === 'node') group.nodes.push(it.item);
    else if (it.kind === 'polyline') group.polylines.push(it.item);
    else group.meshes.push(it.item);
  }

  finish(name: string, attribution: string[]): ExportScene {
    const groups = this.groupNames().map((n) => this.groups.get(n)!);
    return { name, units: this.frame.units, georef: this.frame.georef, groups, attribution };
  }
}

/** Builds the scene from every group's chunks at once; consumes `input.groups` (each chunk is dropped once parsed). */
export function sceneFromTiles(input: SceneInput, frame: ExportFrame): ExportScene {
  const builder = new SceneBuilder(frame);
  for (const g of input.groups) {
    builder.declare(g.key);
    for (let c = 0; c < g.chunks.length; c++) {
      const chunk = g.chunks[c];
      g.chunks[c] = EMPTY; // parsed once: let the bytes go
      builder.add(g.key, chunk);
    }
  }
  return builder.finish(input.name, input.attribution);
}

type Descriptor = Record<string, unknown>;

function featureId(d: Descriptor, fallback: string): string {
  if (typeof d.id === 'string' && d.id) return d.id;
  if (d.type === 'terrain' && Array.isArray(d.tile)) return `terrain/${d.tile.join(',')}`;
  return fallback;
}

function toMesh(item: Descriptor, group: ExportGroupName, frame: ExportFrame, n: number): ExportMesh {
  const positions = Float64Array.from(item.vertices as number[]);
  frame.transform(positions);
  const indices = item.indices ? Uint32Array.from(item.indices as number[]) : Uint32Array.from({ length: positions.length / 3 }, (_, i) => i);
  return exportMesh((item.descriptor ?? {}) as Descriptor, positions, indices, group, n);
}

/** A mesh of the scene from its descriptor and its positions already in the file's frame. */
function exportMesh(d: Descriptor, positions: Float64Array, indices: Uint32Array, group: ExportGroupName, n: number): ExportMesh {
  const kind = typeof d.type === 'string' ? d.type : group;
  const colour = hexColour(d.buildingColour ?? d.colour); // buildings: building:colour; barriers: colour
  return { id: featureId(d, `${kind}/${n}`), kind, positions, indices, descriptor: d, ...(colour ? { colour } : {}) };
}

function toPolyline(item: Descriptor, frame: ExportFrame, n: number): ExportPolyline {
  const d = (item.descriptor ?? {}) as Descriptor;
  const points = Float64Array.from(item.vertices as number[]);
  frame.transform(points);
  const kind = typeof d.kind === 'string' ? d.kind : 'outline';
  return { id: featureId(d, `${kind}/${n}`), kind, points, closed: item.closed === true, descriptor: d };
}

function toNode(item: Descriptor, frame: ExportFrame): ExportNode {
  const p = new Float64Array([item.x as number, item.y as number, item.z as number]);
  frame.transform(p);
  // a heading measured from local east becomes one from grid east: the grid is turned by the convergence
  const rotation = (item.rotation as number) - frame.georef.gridConvergence;
  return { type: String(item.type), position: [p[0], p[1], p[2]], rotation, scale: item.scale as number, descriptor: (item.descriptor ?? {}) as Descriptor };
}

/**
 * A wire span as its cable: a catenary (geometry/instances/models/cable.ts) between the span's
 * attachment points, named `<line id>#<span>`, kind `wire`. Its descriptor's `from`/`to` move
 * into the file's frame with it (the tiles give them in the request's local frame).
 */
function toCable(item: Descriptor, frame: ExportFrame): ExportPolyline {
  const d = { ...((item.descriptor ?? {}) as Descriptor) };
  const ends = Float64Array.from([...(d.from as number[]), ...(d.to as number[])]);
  const points = cablePoints([ends[0], ends[1], ends[2]], [ends[3], ends[4], ends[5]]);
  frame.transform(ends);
  frame.transform(points);
  d.from = [ends[0], ends[1], ends[2]];
  d.to = [ends[3], ends[4], ends[5]];
  const id = typeof d.id === 'string' ? `${d.id}#${d.span ?? 0}` : `wire@${ends[0].toFixed(2)},${ends[1].toFixed(2)}`;
  return { id, kind: 'wire', points, closed: false, descriptor: d };
}

/** `#rrggbb` → sRGB 0–1. */
function hexColour(v: unknown): [number, number, number] | undefined {
  if (typeof v !== 'string' || !/^#[0-9a-f]{6}$/i.test(v)) return undefined;
  const n = parseInt(v.slice(1), 16);
  return [((n >> 16) & 255) / 255, ((n >> 8) & 255) / 255, (n & 255) / 255];
}
