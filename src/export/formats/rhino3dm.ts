/**
 * Rhino 3dm writer (rhino3dm, OpenNURBS in WebAssembly), Rhino 7 files. One parent layer per
 * group and one sub-layer per kind (`surface::asphalt`); one mesh object per feature, named by
 * its id, with the descriptor as user strings; lines as PolylineCurves; nodes as point objects
 * carrying type, rotation and scale as user strings (rhino3dm cannot create block instances, and
 * a point is what a Grasshopper definition wants to place its own trees and benches on). Vertices
 * are stored in double precision, so absolute grid coordinates stay exact.
 */
import type { File3dm, File3dmLayerTable, File3dmObjectTable, ObjectAttributes, RhinoModule } from 'rhino3dm';
import { sceneHead, type ExportFile, type ExportGroupName, type ExportMesh, type ExportNode, type ExportPolyline, type ExportScene, type ExportSceneHead } from '../scene.ts';
import type { SceneItem } from '../scene-from-tiles.ts';
import { kindColour } from './palette.ts';
import { writeDocumentGeoreference } from './rhino3dm-georef.ts';
import { free, rhinoModule } from './rhino3dm-wasm.ts';

export { prepareRhinoModule } from './rhino3dm-wasm.ts';

/** 3dm archive version written (Rhino 7 and later open it). */
export const FILE_VERSION = 7;

const rgb = (c: [number, number, number]) => ({ r: Math.round(c[0] * 255), g: Math.round(c[1] * 255), b: Math.round(c[2] * 255), a: 255 });

/** A descriptor value as user text: strings as they are, anything else as JSON. */
const userText = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));

class Rhino3dmWriter {
  private readonly layers = new Map<string, number>();
  /** Taken once: every `doc.objects()` / `doc.layers()` is a wrapper that keeps the model alive until freed. */
  readonly objects: File3dmObjectTable;
  readonly layerTable: File3dmLayerTable;

  constructor(private readonly rh: RhinoModule, doc: File3dm) {
    this.objects = doc.objects();
    this.layerTable = doc.layers();
  }

  release(): void {
    free(this.objects, this.layerTable);
  }

  /** The index of a group's parent layer, made on first use. */
  groupLayer(group: ExportGroupName): number {
    let parent = this.layers.get(group);
    if (parent === undefined) {
      parent = this.addLayer(group, kindColour(group), undefined);
      this.layers.set(group, parent);
    }
    return parent;
  }

  /** The index of `group::kind` (coloured by the kind), creating the group's parent layer and the kind's sub-layer on first use. */
  private layer(group: ExportGroupName, kind: string): number {
    const key = `${group}::${kind}`;
    let index = this.layers.get(key);
    if (index !== undefined) return index;
    index = this.addLayer(kind, kindColour(kind), this.groupLayer(group));
    this.layers.set(key, index);
    return index;
  }

  private addLayer(name: string, colour: [number, number, number], parent: number | undefined): number {
    const table = this.layerTable, layer = new this.rh.Layer();
    layer.name = name;
    layer.color = rgb(colour);
    if (parent !== undefined) {
      const p = table.get(parent);
      layer.parentLayerId = p.id;
      free(p);
    }
    const index = table.add(layer);
    free(layer);
    return index;
  }

  private attributes(layer: number, name: string, strings: Record<string, unknown>): ObjectAttributes {
    const a = new this.rh.ObjectAttributes();
    a.layerIndex = layer;
    a.name = name;
    for (const [k, v] of Object.entries(strings)) if (v !== undefined && v !== null) a.setUserString(k, userText(v));
    return a;
  }

  mesh(group: ExportGroupName, m: ExportMesh): void {
    const mesh = new this.rh.Mesh(), vertices = mesh.vertices(), faces = mesh.faces();
    vertices.useDoublePrecisionVertices = true;
    const p = m.positions, t = m.indices;
    for (let i = 0; i < p.length; i += 3) vertices.addPoint3d(p[i], p[i + 1], p[i + 2]);
    for (let i = 0; i < t.length; i += 3) faces.addTriFace(t[i], t[i + 1], t[i + 2]);
    const normals = mesh.normals();
    normals.computeNormals();
    const a = this.attributes(this.layer(group, m.kind), m.id, m.descriptor);
    if (m.colour) {
      a.colorSource = this.rh.ObjectColorSource.ColorFromObject;
      a.objectColor = rgb(m.colour);
    }
    this.objects.addMesh(mesh, a);
    free(normals, faces, vertices, mesh, a);
  }

  polyline(group: ExportGroupName, line: ExportPolyline): void {
    const p = line.points, n = p.length / 3;
    const points = new this.rh.Point3dList(n + (line.closed ? 1 : 0));
    for (let i = 0; i < p.length; i += 3) points.add(p[i], p[i + 1], p[i + 2]);
    if (line.closed && n) points.add(p[0], p[1], p[2]);
    const curve = new this.rh.PolylineCurve(points);
    // Layered by surface kind (`surfaceLines::asphalt`), as in DXF: one request draws only centerlines or only outlines.
    const kind = typeof line.descriptor.type === 'string' ? line.descriptor.type : line.kind;
    const a = this.attributes(this.layer(group, kind), line.id, line.descriptor);
    this.objects.addCurve(curve, a);
    free(curve, points, a);
  }

  node(group: ExportGroupName, node: ExportNode, index: number): void {
    const id = typeof node.descriptor.id === 'string' ? node.descriptor.id : `${node.type}/${index}`;
    const a = this.attributes(this.layer(group, node.type), id, { ...node.descriptor, rotation: node.rotation, scale: node.scale });
    this.objects.addPoint(node.position, a);
    free(a);
  }
}

/** A 3dm document taking features one by one as the tiles' chunks are parsed, written out at `finish`. */
export interface Rhino3dmStream {
  add(group: ExportGroupName, it: SceneItem): void;
  /** Georeference, comments and serialisation; `scene` gives name, units, georef and attribution (its groups are not read). */
  finish(scene: ExportScene): ExportFile;
  /** Frees the document without writing (a failed or cancelled export). */
  abort(): void;
}

/**
 * Opens a document for the head's groups (their parent layers are made now, in the writers'
 * order, so the layer table does not depend on which tile finished first).
 */
export async function openRhino3dmStream({ groups }: ExportSceneHead): Promise<Rhino3dmStream> {
  const rh = await rhinoModule();
  const doc = new rh.File3dm();
  const out = new Rhino3dmWriter(rh, doc);
  for (const g of groups) out.groupLayer(g);
  let nodes = 0, open = true;
  const close = () => {
    if (!open) return;
    open = false;
    out.release();
  };
  return {
    add(group, it) {
      if (it.kind === 'mesh') out.mesh(group, it.item);
      else if (it.kind === 'polyline') out.polyline(group, it.item);
      else out.node(group, it.item, nodes++);
    },
    finish(scene) {
      try {
        doc.applicationName = 'City Context';
        doc.startSectionComments = `${scene.name}\n${scene.attribution.join('\n')}`;
        writeDocumentGeoreference(rh, doc, scene);
        close();
        // Version 7: Rhino reads its own and older versions only, and many offices still run Rhino 7.
        const options = new rh.File3dmWriteOptions();
        options.version = FILE_VERSION;
        // already a copy in JavaScript memory (its own ArrayBuffer), not a view into the WebAssembly heap
        const bytes = doc.toByteArrayOptions(options);
        free(options);
        // No registered MIME type exists for 3dm.
        return { bytes, extension: '3dm', contentType: 'application/octet-stream' };
      } finally {
        close();
        free(doc);
      }
    },
    abort() {
      close();
      free(doc);
    },
  };
}

export async function writeRhino3dm(scene: ExportScene): Promise<ExportFile> {
  const stream = await openRhino3dmStream(sceneHead(scene));
  try {
    for (const group of scene.groups) {
      for (const item of group.meshes) stream.add(group.name, { kind: 'mesh', item });
      for (const item of group.polylines) stream.add(group.name, { kind: 'polyline', item });
      for (const item of group.nodes) stream.add(group.name, { kind: 'node', item });
    }
  } catch (err) {
    stream.abort();
    throw err;
  }
  return stream.finish(scene);
}
