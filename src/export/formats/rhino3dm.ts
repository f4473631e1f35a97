/**
 * Rhino 3dm writer: our own OpenNURBS archive writer (./rhino3dm-archive.ts), no WebAssembly.
 * One parent layer per group and one sub-layer per kind (`surface::asphalt`); one mesh object per
 * feature, named by its id, with the descriptor as user strings (a premium building part: one
 * object per surface role, `<id>#roof` on `buildings::buildingRoof`, `<id>#wall`…, surface-parts.ts); lines and cables (`wire` spans)
 * as PolylineCurves; nodes as block instances of their shared model (./rhino3dm-instances.ts),
 * named by ./node-models.ts `nodeName`, carrying the descriptor, rotation and scale as user
 * strings (a block's insertion point is also what a Grasshopper definition places its own trees
 * and benches on). Vertices and transforms are stored in double precision, so absolute grid
 * coordinates stay exact.
 *
 * Archive version 70 (Rhino 7): Rhino reads its own and older versions only, many offices still
 * run Rhino 7, and Rhino 8 opens it too. rhino3dm (OpenNURBS) reads it back in the tests.
 *
 * Streaming: each feature becomes its object record's bytes when it arrives, and those go out in
 * ~1 MB pieces (to the export's spill file when it stages its file). The layer table comes before
 * the object table in a 3dm, and layers are known only as features arrive, so the file's head —
 * start section, settings, layers and the object table's header — is written at `finish`, in front
 * of the pieces. Mesh arrays of 1 kB and more are deflated at level 1 (OpenNURBS' compressed
 * buffers; ./rhino3dm-archive.ts DEFLATE_MIN): most of a 3dm is per-object records and UTF-16
 * user strings, which OpenNURBS never compresses, so deflating saves ~4–8% at most.
 */
import {
  sceneHead,
  type ExportFile,
  type ExportGroupName,
  type ExportMesh,
  type ExportNode,
  type ExportPolyline,
  type ExportScene,
  type ExportSceneHead,
  type FinishedExport,
} from '../scene.ts';
import type { FilePiece } from '../spill.ts';
import { kindColour } from './palette.ts';
import { compactPart, partDescriptor, surfaceParts } from './surface-parts.ts';
import { ArchiveWriter } from './rhino3dm-archive.ts';
import { UuidSource } from './rhino3dm-codes.ts';
import { documentSettings, documentStrings } from './rhino3dm-georef.ts';
import { InstanceDefinitions, instanceXform, writeInstanceReferenceObject } from './rhino3dm-instances.ts';
import { nodeInstance, nodeName } from './node-models.ts';
import { writeMeshObject, writePointObject, writePolylineObject, type ObjectAttributes } from './rhino3dm-objects.ts';
import {
  writeEndOfFile,
  writeObjectTableHead,
  writeProperties,
  writeStart,
  writeTablesAfterObjects,
  writeTablesBeforeObjects,
  type LayerRecord,
} from './rhino3dm-tables.ts';
import { writeThroughStream, type SyncStreamingWriter } from './stream-scene.ts';

/** 3dm version written (archive version 70: Rhino 7 and later open it). */
export const FILE_VERSION = 7;

/** zlib level of the mesh arrays (0: stored). */
const DEFLATE_LEVEL = 1;
/** Object records are handed over in pieces of about this size. */
const PIECE = 1 << 20;

const rgb = (c: [number, number, number]): [number, number, number] => [Math.round(c[0] * 255), Math.round(c[1] * 255), Math.round(c[2] * 255)];

/** A descriptor value as user text: strings as they are, anything else as JSON. */
const userText = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));

/**
 * An object name as OpenNURBS keeps it: it drops a whole name holding a control character or a
 * noncharacter (U+xFFFE, U+xFFFF) on reading, and names do not start or end with a space, so
 * those go instead (feature ids are plain ASCII: the first test lets them through as they are).
 */
export function objectName(id: string): string {
  if (/^[\x21-\x7e]([\x20-\x7e]*[\x21-\x7e])?$/.test(id)) return id;
  let out = '';
  for (const ch of id) {
    const cp = ch.codePointAt(0)!;
    if (cp >= 0x20 && !(cp >= 0x7f && cp <= 0x9f) && (cp & 0xfffe) !== 0xfffe) out += ch;
  }
  return out.replace(/^[\s\u200b]+|[\s\u200b]+$/g, '');
}

const userStrings = (descriptor: Record<string, unknown>): [string, string][] =>
  Object.entries(descriptor)
    .filter(([, v]) => v !== undefined && v !== null)
    .map(([k, v]) => [k, userText(v)]);

/** The layer table as features need it: a group's parent layer, a kind's sub-layer, each made on first use. */
class Layers {
  readonly records: LayerRecord[] = [];
  private readonly index = new Map<string, number>();

  constructor(private readonly ids: UuidSource) {}

  group(group: ExportGroupName): number {
    return this.get(group, () => this.add(group, undefined, group));
  }

  kind(group: ExportGroupName, kind: string): number {
    return this.get(`${group}::${kind}`, () => this.add(kind, this.records[this.group(group)].id, `${group}::${kind}`));
  }

  private get(key: string, make: () => number): number {
    let i = this.index.get(key);
    if (i === undefined) this.index.set(key, (i = make()));
    return i;
  }

  private add(name: string, parent: Uint8Array | undefined, path: string): number {
    // coloured by the kind (a group's own colour for a parent layer)
    this.records.push({ id: this.ids.next(`layer:${path}`), name, colour: rgb(kindColour(name)), parent });
    return this.records.length - 1;
  }
}

/**
 * A 3dm taking features one by one as the tiles' chunks are parsed. The groups' parent layers
 * are made at once, in the writers' order, so the layer table does not depend on which tile
 * finished first.
 */
export function openRhino3dmStream({ groups, units }: ExportSceneHead): SyncStreamingWriter {
  const ids = new UuidSource();
  const layers = new Layers(ids);
  for (const g of groups) layers.group(g);
  const definitions = new InstanceDefinitions(ids, units);
  const out = new ArchiveWriter(DEFLATE_LEVEL);
  const pieces: FilePiece[] = [];
  let recordBytes = 0;
  const handOver = (): void => {
    const piece = out.take();
    recordBytes += piece.length;
    pieces.push(piece);
  };
  const attributes = (layer: number, name: string, strings: Record<string, unknown>, colour?: [number, number, number]): ObjectAttributes => ({
    id: ids.next(name),
    layer,
    name: objectName(name),
    strings: userStrings(strings),
    colour: colour && rgb(colour),
  });

  const mesh = (group: ExportGroupName, m: ExportMesh): void => {
    const parts = surfaceParts(m);
    if (parts.length === 1 && parts[0].role === null) {
      writeMeshObject(out, attributes(layers.kind(group, m.kind), m.id, m.descriptor, m.colour), m.positions, m.indices);
      return;
    }
    // a premium building's roof, wall and floor: an object each on its kind's layer, named `<id>#<role>`, the descriptor on each
    for (const part of parts) {
      const own = compactPart(m.positions, part.indices);
      writeMeshObject(
        out,
        attributes(layers.kind(group, part.kind), `${m.id}#${part.role}`, partDescriptor(m.descriptor, part.role)),
        own.positions,
        own.indices,
      );
    }
  };
  const polyline = (group: ExportGroupName, line: ExportPolyline): void => {
    // Layered by surface kind (`surfaceLines::asphalt`), as in DXF: one request draws only centerlines or only outlines.
    const kind = typeof line.descriptor.type === 'string' ? line.descriptor.type : line.kind;
    writePolylineObject(out, attributes(layers.kind(group, kind), line.id, line.descriptor), line.points, line.closed);
  };
  const node = (group: ExportGroupName, n: ExportNode): void => {
    const a = attributes(layers.kind(group, n.type), nodeName(n), { ...n.descriptor, rotation: n.rotation, scale: n.scale });
    const inst = nodeInstance(n, units);
    if (!inst) {
      writePointObject(out, a, n.position); // a node without a model (none comes today: wires arrive as cables)
      return;
    }
    const definition = definitions.use(out, inst.model, layers.group(group));
    writeInstanceReferenceObject(out, a, definition, instanceXform(inst, units));
  };

  return {
    add(group, it) {
      if (it.kind === 'mesh') mesh(group, it.item);
      else if (it.kind === 'polyline') polyline(group, it.item);
      else node(group, it.item);
      if (out.length >= PIECE) handOver();
    },
    finish(scene: ExportScene): FinishedExport {
      if (out.length) handOver();
      const head = new ArchiveWriter();
      writeStart(head, `${scene.name}\n${scene.attribution.join('\n')}`);
      writeProperties(head, 'City Context');
      writeTablesBeforeObjects(head, documentSettings(scene), layers.records, definitions);
      writeObjectTableHead(head, recordBytes);
      const tail = new ArchiveWriter();
      writeTablesAfterObjects(tail, documentStrings(scene));
      writeEndOfFile(tail, head.length + recordBytes + tail.length);
      // No registered MIME type exists for 3dm.
      return { bytes: [head.takeBytes(), ...pieces.splice(0), tail.takeBytes()], extension: '3dm', contentType: 'application/octet-stream' };
    },
    abort() {}, // nothing outside the JavaScript heap; spilled pieces go with the spill file
  };
}

export function writeRhino3dm(scene: ExportScene): ExportFile {
  return writeThroughStream(openRhino3dmStream(sceneHead(scene)), scene);
}
